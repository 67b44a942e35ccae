import { Logger } from '@nestjs/common';
import { logsAt } from '../../common/logging/log-level-gate';
import type { GatewayMetrics, RunOutcome } from '../metrics';
import type { RunRecord } from './run-registry';

/** Where a run's message came from: the channel, and the peer (account, A2A peer, key) when the channel names one. */
export interface RunOrigin {
  channel: string;
  peer?: string;
  /** The channel account the message came in on (http and chat channels), whom the usage of the run is counted for. */
  account?: string;
}

/** `openai/gpt-4o` → `openai`; a bare name is its own provider (runtime.md#models). */
export function providerOf(modelRef: string | undefined): string {
  if (!modelRef) return 'none';
  const slash = modelRef.indexOf('/');
  return slash > 0 ? modelRef.slice(0, slash) : modelRef;
}

/**
 * The run's lines and series (docs/operations.md): one info line per inbound message as its run is queued, one per
 * run as it ends, and the run's outcome and duration in the metrics. The lines are written in the context of the
 * request that started the run, so they carry its `reqId`.
 */
export class RunLog {
  private readonly logger = new Logger('runtime');

  constructor(private readonly metrics: GatewayMetrics) {}

  received(run: RunRecord, origin: RunOrigin): void {
    if (!logsAt('info')) return;
    this.logger.log(
      {
        event: 'message.received',
        channel: origin.channel,
        peer: origin.peer ?? null,
        agent: run.agentId,
        sessionKey: run.sessionKey,
        runId: run.runId,
      },
      `message on ${origin.channel}${origin.peer ? ` from ${origin.peer}` : ''} for agent ${run.agentId}: session ${run.sessionKey}, run ${run.runId}`,
    );
  }

  ended(run: RunRecord, origin: RunOrigin | undefined): void {
    const outcome = run.status as RunOutcome;
    const end = run.endedAt ? Date.parse(run.endedAt) : Date.now();
    const durationMs = Math.max(0, end - Date.parse(run.startedAt ?? run.queuedAt));
    const queuedMs = run.startedAt ? Math.max(0, Date.parse(run.startedAt) - Date.parse(run.queuedAt)) : null;
    this.metrics.runEnded(run.agentId, providerOf(run.model), outcome, durationMs / 1000);
    if (!logsAt('info')) return;
    const tokens = run.usage ? `, ${run.usage.inputTokens} in / ${run.usage.outputTokens} out tokens` : '';
    this.logger.log(
      {
        event: 'run.ended',
        runId: run.runId,
        agent: run.agentId,
        sessionKey: run.sessionKey,
        channel: origin?.channel ?? null,
        outcome,
        durationMs,
        queuedMs,
        model: run.model ?? null,
        inputTokens: run.usage?.inputTokens ?? null,
        outputTokens: run.usage?.outputTokens ?? null,
        toolRounds: run.toolRounds,
        ...(run.error ? { error: run.error } : {}),
      },
      `run ${run.runId} ${outcome} in ${durationMs} ms (agent ${run.agentId}, model ${run.model ?? 'none'}${tokens})`,
    );
  }
}
