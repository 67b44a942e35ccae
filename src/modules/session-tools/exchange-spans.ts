import { context, SpanKind, trace, type Context, type Span } from '@opentelemetry/api';
import { CLAWGATE } from '../../common/telemetry/span-attributes';
import { markFailed, Tracing, type TraceFields } from '../../common/telemetry/tracing';
import { isTerminalRunStatus, type RunRecord } from '../runtime';

export type ExchangeSpanStep = 'round_one' | 'ping_pong' | 'announce';

export interface StepSpanInput {
  /** The session the step runs in. */
  sessionKey: string;
  /** The other side of the exchange. */
  peerSessionKey: string;
  chainId?: string;
  hop?: number;
  turn?: number;
}

/** A step's span and the trace context its message carries in its provenance (undefined while tracing is off). */
export interface TracedStep {
  span: Span;
  trace?: TraceFields;
}

/**
 * The span of one step of a sessions_send exchange (docs/telemetry.md#across-sessions): round one, each ping-pong
 * turn, the announce. Its parent is the sending run's `execute_tool sessions_send` span — passed along explicitly,
 * because the later steps start after that tool call has returned — and its trace context goes into the step's
 * provenance, so the run that answers (in the other session, on its nested lane) is the step's child.
 */
export function beginStep(tracing: Tracing, step: ExchangeSpanStep, input: StepSpanInput, parent?: Context): TracedStep {
  const span = tracing.startSpan(
    `clawgate.sessions_send.${step}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [CLAWGATE.sessionKey]: input.sessionKey,
        [CLAWGATE.targetSessionKey]: input.peerSessionKey,
        ...(input.chainId ? { [CLAWGATE.chainId]: input.chainId } : {}),
        ...(input.hop !== undefined ? { [CLAWGATE.chainHop]: input.hop } : {}),
        ...(input.turn !== undefined ? { [CLAWGATE.pingPongTurn]: input.turn } : {}),
      },
    },
    parent,
  );
  if (!tracing.enabled) return { span };
  return { span, trace: tracing.fields(trace.setSpan(parent ?? context.active(), span)) };
}

/** Names the step's run on its span once it exists. */
export function stepStarted(step: TracedStep, runId: string): void {
  step.span.setAttribute(CLAWGATE.runId, runId);
}

/** Ends a step with what its run came to (undefined: the requesting run was aborted before it started). */
export function endStep(step: TracedStep, record: RunRecord | undefined): void {
  const status = !record ? 'not_started' : isTerminalRunStatus(record.status) ? record.status : 'still_running';
  step.span.setAttribute(CLAWGATE.runStatus, status);
  if (status === 'failed') markFailed(step.span, 'step_failed');
  if (status === 'still_running') markFailed(step.span, 'step_timeout');
  step.span.end();
}
