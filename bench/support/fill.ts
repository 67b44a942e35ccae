import { performance } from 'node:perf_hooks';

/**
 * Runs `job(i)` for i = 0..count-1 with `concurrency` of them in flight, and calls `progress` after every
 * tenth of them (and the last) with how many are done and the seconds since the start. Resolves with those
 * seconds once every job has finished.
 */
export async function fill(
  count: number,
  concurrency: number,
  job: (i: number) => Promise<void>,
  progress: (done: number, seconds: number) => void,
): Promise<number> {
  const began = performance.now();
  const step = Math.max(1, Math.ceil(count / 10));
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        await job(next++);
        if (++done % step === 0 || done === count) progress(done, (performance.now() - began) / 1000);
      }
    }),
  );
  return (performance.now() - began) / 1000;
}

/** A bench's entry point: any failure is printed and ends the process with status 1. */
export function runBench(main: () => Promise<unknown>): void {
  main().catch((err: Error) => {
    console.error(err);
    process.exit(1);
  });
}
