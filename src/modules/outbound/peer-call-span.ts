import { SpanKind, type Span } from '@opentelemetry/api';
import { CLAWGATE, errorTypeOf, SEMCONV } from '../../common/telemetry/span-attributes';
import { OFF_SPAN, type Tracing } from '../../common/telemetry/tracing';
import { A2aOutboundError } from './a2a-outbound-error';
import type { PeerEndpoint } from './peer-rpc';

/**
 * The client span of one call to an A2A peer (docs/telemetry.md#spans): `a2a <method>` (SendMessage, GetTask,
 * CancelTask, SendStreamingMessage, GetAgentCard), with the peer's configured name, its host and the task id once
 * known. The transport sends `traceparent` from inside it, so the peer's server span is this span's child.
 */
export function inPeerCallSpan<T>(
  tracing: Tracing,
  peer: Pick<PeerEndpoint, 'name' | 'url'>,
  method: string,
  fn: (span: Span) => Promise<T>,
  taskId?: string,
): Promise<T> {
  if (!tracing.enabled) return fn(OFF_SPAN);
  return tracing.inSpan(
    `a2a ${method}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [SEMCONV.rpcSystem]: 'jsonrpc',
        [SEMCONV.rpcMethod]: method,
        [CLAWGATE.peer]: peer.name,
        ...serverOf(peer.url),
        ...(taskId ? { [CLAWGATE.taskId]: taskId } : {}),
      },
      errorType: (err) => {
        if (!(err instanceof A2aOutboundError)) return errorTypeOf(err);
        return err.rpcCode !== undefined ? `jsonrpc_${err.rpcCode}` : `a2a_${err.reason}`;
      },
    },
    fn,
  );
}

/** Names the peer's task on the span of the call that learned it (a send's answer). */
export function recordTaskId(span: Span, taskId: string | null | undefined): void {
  if (taskId) span.setAttribute(CLAWGATE.taskId, taskId);
}

/** The task id in a send's `result`, 1.0 (`{task: {id}}`) or 0.3 (a bare task); undefined for a message answer. */
export function peekTaskId(result: unknown): string | undefined {
  const r = result as { task?: { id?: unknown }; kind?: unknown; id?: unknown } | null;
  const id = r?.task?.id ?? (r?.kind === 'task' ? r.id : undefined);
  return typeof id === 'string' ? id : undefined;
}

export function serverOf(url: string): Record<string, string | number> {
  try {
    const u = new URL(url);
    return { [SEMCONV.serverAddress]: u.hostname, [SEMCONV.serverPort]: u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80 };
  } catch {
    return {};
  }
}
