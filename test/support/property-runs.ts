import type { Parameters } from 'fast-check';

/**
 * Settings of every property test. By default a test runs a bounded number of cases from a fixed seed, so
 * `npm test` stays fast and a CI failure reproduces with the same inputs. A deliberate long run:
 *
 *   PROPERTY_RUNS=10000 npx jest property       (a fresh random seed, printed on failure)
 *   PROPERTY_SEED=1234 PROPERTY_RUNS=10000 ...   (that seed)
 *
 * fast-check prints the seed and the shrunk counterexample of a failure; rerun with that PROPERTY_SEED.
 */
export const DEFAULT_SEED = 20_260_101;

export function propertyRuns(defaultRuns = 200): number {
  const runs = Number(process.env.PROPERTY_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : defaultRuns;
}

export function propertyParameters<T = unknown>(defaultRuns = 200): Parameters<T> {
  const pinned = process.env.PROPERTY_SEED;
  const long = process.env.PROPERTY_RUNS !== undefined;
  const seed = pinned !== undefined && pinned !== '' ? Number(pinned) : long ? undefined : DEFAULT_SEED;
  return { numRuns: propertyRuns(defaultRuns), ...(seed !== undefined ? { seed } : {}) };
}

/** A jest timeout that grows with the number of runs (the default 30 s covers the bounded runs). */
export function propertyTimeout(msPerRun: number, defaultRuns = 200): number {
  return Math.max(30_000, propertyRuns(defaultRuns) * msPerRun * 2);
}
