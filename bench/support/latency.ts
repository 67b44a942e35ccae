/** Request latencies reduced to p50/p99, and printed against a p99 goal (figure/goal ≤ 1 passes). */
export interface Figure {
  name: string;
  requests: number;
  p50: number;
  p99: number;
}

export function figure(name: string, latencies: number[]): Figure {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { name, requests: sorted.length, p50: at(0.5), p99: at(0.99) };
}

export function printFigure(f: Figure, goalP99Ms: number): void {
  const ratio = f.p99 / goalP99Ms;
  console.log(
    `  ${f.name.padEnd(38)} p50 ${f.p50.toFixed(2).padStart(8)} ms   p99 ${f.p99.toFixed(2).padStart(8)} ms   ` +
      `goal p99 ≤ ${goalP99Ms} ms   ratio ${ratio.toFixed(2)}x   ${ratio <= 1 ? '[pass]' : '[FAIL]'}   (${f.requests} requests)`,
  );
}

/** The line under the figures: the worst p99 against the goal. */
export function printWorst(figures: Figure[], goalP99Ms: number): void {
  const worst = figures.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  console.log(
    `  worst p99 ${worst.p99.toFixed(2)} ms (${worst.name}) vs the goal ${goalP99Ms} ms: ${(worst.p99 / goalP99Ms).toFixed(2)}x ` +
      `${worst.p99 <= goalP99Ms ? '[pass]' : '[FAIL]'}`,
  );
}
