import { BudgetExhaustedError } from '../usage';
import type { RunRecord } from './run-registry';
import type { StartRunInput } from './start-run-input';

/** A run's error text is cut here (a provider's error body can be long). */
const MAX_ERROR_CHARS = 512;

/** What a turn leaves its lane with: the run's end, which may still be on its way to the disk. */
export interface Ran {
  settled: Promise<RunRecord>;
}

export function ran(record: RunRecord): Ran {
  return { settled: Promise.resolve(record) };
}

export function failure(signal: AbortSignal, err: Error): Pick<RunRecord, 'status' | 'error' | 'endedAt' | 'refusal'> {
  if (!signal.aborted && err instanceof BudgetExhaustedError) {
    const refusal = { reason: err.reason, budget: err.budget, retryAfterSeconds: err.retryAfterSeconds };
    return { status: 'failed', error: err.message.slice(0, MAX_ERROR_CHARS), endedAt: now(), refusal };
  }
  const message = (signal.aborted ? ((signal.reason as Error)?.message ?? 'aborted') : (err?.message ?? String(err))).slice(
    0,
    MAX_ERROR_CHARS,
  );
  return { status: signal.aborted ? 'aborted' : 'failed', error: message, endedAt: now() };
}

/**
 * Whom a run's model calls are counted for (docs/usage.md): the channel and its A2A peer, OpenAI/MCP key or account;
 * a run another session's tool started is `agent`, from that session; anything else (the admin API's runs) `internal`.
 */
export function usageOrigin(input: StartRunInput): { channel: string; caller?: string } {
  if (input.origin) return { channel: input.origin.channel, caller: input.origin.account ?? input.origin.peer };
  if (input.provenance) return { channel: 'agent', caller: input.provenance.sourceSessionKey };
  return { channel: 'internal' };
}

export function now(): string {
  return new Date().toISOString();
}
