import type { Parameters } from 'fast-check';

/**
 * Settings of every property test. By default a test runs a bounded number of cases from a fixed seed, so
 * `npm test` stays fast and a CI failure reproduces with the same inputs. A deliberate long run:
 *
 *   PROPERTY_RUNS=10000 npx jest property       (a fresh random seed, shown in the test's name)
 *   PROPERTY_SEED=1234 PROPERTY_RUNS=10000 ...   (that seed)
 *
 * fast-check prints the seed and the shrunk counterexample of a failure; rerun with that PROPERTY_SEED.
 */
export const DEFAULT_SEED = 20_260_101;

function seedInUse(): number {
  const pinned = process.env.PROPERTY_SEED;
  if (pinned !== undefined && pinned !== '') return Number(pinned);
  return process.env.PROPERTY_RUNS !== undefined ? Math.floor(Math.random() * 2 ** 31) : DEFAULT_SEED;
}

/** The seed of this run: pinned, fixed by default, random in a long run. */
export const PROPERTY_SEED = seedInUse();

export function propertyRuns(defaultRuns = 200): number {
  const runs = Number(process.env.PROPERTY_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : defaultRuns;
}

export function propertyParameters<T = unknown>(defaultRuns = 200): Parameters<T> {
  return { numRuns: propertyRuns(defaultRuns), seed: PROPERTY_SEED };
}

/** A jest timeout that grows with the number of runs; generous for the default runs. */
export function propertyTimeout(defaultRuns = 200, msPerRun = 50): number {
  return Math.max(120_000, propertyRuns(defaultRuns) * msPerRun * 2);
}
