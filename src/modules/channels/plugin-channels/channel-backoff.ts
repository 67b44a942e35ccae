/** Waits before restarting a channel whose `start` failed: the n-th consecutive failure waits the n-th entry (then the last). */
export const CHANNEL_RESTART_BACKOFF_MS: readonly number[] = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];

export function restartDelay(failures: number): number {
  return CHANNEL_RESTART_BACKOFF_MS[Math.min(Math.max(failures, 1), CHANNEL_RESTART_BACKOFF_MS.length) - 1];
}
