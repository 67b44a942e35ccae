import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * The pino mixin that puts `trace_id` and `span_id` on every log line written while a span is active, so a line
 * leads to its trace. A fresh object each time: pino merges the line's own fields into what the mixin returns.
 * While telemetry is off no span is ever active and this returns an empty object.
 */
export function traceLogFields(): Record<string, string> {
  const span = trace.getSpanContext(context.active());
  if (!span || !isSpanContextValid(span)) return {};
  return { trace_id: span.traceId, span_id: span.spanId };
}
