import type * as fc from 'fast-check';

/**
 * Settings of the property tests: seeded, so a failure reproduces, and few runs by default so `npm test`
 * stays fast. `PROPERTY_RUNS=10000 npx jest <file>` is the long mode; `PROPERTY_SEED=<n>` replays another
 * seed (fast-check prints the seed and path of any counterexample it finds).
 */
export const PROPERTY_SEED = Number(process.env.PROPERTY_SEED ?? 20260101);

export function propertyRuns(defaultRuns: number): number {
  const runs = Number(process.env.PROPERTY_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : defaultRuns;
}

export function propertyParameters<T>(defaultRuns: number): fc.Parameters<T> {
  return { numRuns: propertyRuns(defaultRuns), seed: PROPERTY_SEED };
}

/** Jest timeout of a property test: generous for the default runs, growing with a long mode's. */
export function propertyTimeout(defaultRuns: number, msPerRun = 50): number {
  return Math.max(120_000, propertyRuns(defaultRuns) * msPerRun);
}
