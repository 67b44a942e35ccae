/**
 * A wait's deadline only says when to give up, never how fast something must be (speed is measured in bench/):
 * a loaded CI machine takes seconds where a quiet one takes milliseconds, so no wait gives up sooner than this.
 */
export const WAIT_FLOOR_MS = 10_000;

/**
 * Polls `condition` until it holds, or throws naming `what` once `timeoutMs` (at least WAIT_FLOOR_MS) has passed.
 * For a condition that yields a value to keep, gateway-harness's `waitFor`.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = WAIT_FLOOR_MS,
  what = 'the condition',
): Promise<void> {
  const waitMs = Math.max(timeoutMs, WAIT_FLOOR_MS);
  const deadline = Date.now() + waitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${waitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
