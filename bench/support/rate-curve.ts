/**
 * Completions per second in `slices` equal parts of a measured window, in order: a curve that falls means each
 * request costs more than the one before. `byOrder`: slice the completions themselves (the first tenth of them vs
 * the last tenth) instead of the time, for a run measured by a count rather than a window.
 */
export function costCurve(completedAt: number[], began: number, ended: number, slices: number, byOrder: boolean): number[] {
  if (!byOrder) {
    const sliceMs = (ended - began) / slices;
    const counts = Array.from({ length: slices }, () => 0);
    for (const t of completedAt) counts[Math.min(slices - 1, Math.floor((t - began) / sliceMs))]++;
    return counts.map((n) => n / (sliceMs / 1000));
  }
  const sorted = [...completedAt].sort((a, b) => a - b);
  const curve: number[] = [];
  let from = began;
  for (let k = 0; k < slices; k++) {
    const lo = Math.floor((k * sorted.length) / slices);
    const hi = Math.floor(((k + 1) * sorted.length) / slices);
    if (hi <= lo) {
      curve.push(NaN);
      continue;
    }
    const until = sorted[hi - 1];
    curve.push((hi - lo) / Math.max(1e-3, (until - from) / 1000));
    from = until;
  }
  return curve;
}
