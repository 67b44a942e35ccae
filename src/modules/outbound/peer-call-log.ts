import { Logger } from '@nestjs/common';
import type { GatewayMetrics } from '../metrics';
import { A2aOutboundError } from './a2a-outbound-error';

/** Methods that poll: their calls are counted and timed like the others, and logged at debug (one per poll tick). */
const POLLS: ReadonlySet<string> = new Set(['GetTask', 'tasks/get']);

/**
 * One line and one observation per call to an A2A peer (docs/operations.md): peer, method, outcome (`ok` or the
 * failure's reason: timeout, unreachable, auth, rpc, …), duration, and the task when it is known.
 */
export class PeerCallLog {
  private readonly logger = new Logger('outbound');

  constructor(private readonly metrics: GatewayMetrics) {}

  async observe<T>(peer: string, method: string, call: () => Promise<T>, taskId?: string): Promise<T> {
    const startedAt = performance.now();
    try {
      const result = await call();
      this.done(peer, method, 'ok', startedAt, taskId);
      return result;
    } catch (err) {
      this.done(peer, method, err instanceof A2aOutboundError ? err.reason : 'error', startedAt, taskId, err as Error);
      throw err;
    }
  }

  private done(peer: string, method: string, outcome: string, startedAt: number, taskId?: string, err?: Error): void {
    const durationMs = Math.round((performance.now() - startedAt) * 100) / 100;
    this.metrics.outboundCall(peer, method, outcome, durationMs / 1000);
    const fields = {
      event: 'a2a.outbound',
      peer,
      method,
      outcome,
      durationMs,
      taskId: taskId ?? null,
      ...(err ? { error: err.message } : {}),
    };
    const message = `A2A ${method} to ${peer}: ${outcome} in ${durationMs} ms${taskId ? ` (task ${taskId})` : ''}`;
    if (POLLS.has(method) && outcome === 'ok') this.logger.debug(fields, message);
    else this.logger.log(fields, message);
  }
}
