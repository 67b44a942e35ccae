import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import { Injectable } from '@nestjs/common';
import { ATTR_ERROR_TYPE, errorTypeOf } from './span-attributes';

/** The W3C trace context of a span, as text: what inter-session provenance carries next to the chain id. */
export interface TraceFields {
  traceparent?: string;
  tracestate?: string;
}

/** What the OpenTelemetry SDK hands the gateway once telemetry is on (docs/telemetry.md). */
export interface ActiveTelemetry {
  tracer: Tracer;
  propagator: TextMapPropagator;
}

export interface InSpanOptions extends SpanOptions {
  parent?: Context;
  /** The `error.type` of a failure (default: errorTypeOf). */
  errorType?: (err: unknown) => string;
}

/** The span every helper passes while telemetry is off: records nothing, costs nothing. */
export const OFF_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * The gateway's one way to make spans and carry trace context (docs/telemetry.md). One per gateway (a Nest
 * provider), not the process-wide OpenTelemetry globals, so two gateways in one process each export with
 * their own service name. Until the telemetry module activates it — and always while `gateway.telemetry` is
 * off — every helper calls straight through: no span object, no context switch, no header.
 */
@Injectable()
export class Tracing {
  private active?: ActiveTelemetry;

  get enabled(): boolean {
    return this.active !== undefined;
  }

  /** Called by the telemetry module with the SDK's tracer and the W3C propagator. */
  activate(telemetry: ActiveTelemetry): void {
    this.active = telemetry;
  }

  deactivate(): void {
    this.active = undefined;
  }

  /**
   * Runs `fn` in a new span (child of `options.parent`, else of the active span) and ends the span when `fn`
   * settles; a throw sets status ERROR with `error.type` (`options.errorType`, else errorTypeOf) and is rethrown.
   */
  inSpan<T>(name: string, options: InSpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
    // Not an async function itself: while off, `fn`'s own promise is the answer, with no wrapper promise around it.
    if (!this.active) {
      try {
        return fn(OFF_SPAN);
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return this.inActiveSpan(this.active, name, options, fn);
  }

  private async inActiveSpan<T>(active: ActiveTelemetry, name: string, options: InSpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
    const parent = options.parent ?? context.active();
    const span = active.tracer.startSpan(name, options, parent);
    try {
      return await context.with(trace.setSpan(parent, span), () => fn(span));
    } catch (err) {
      markFailed(span, (options.errorType ?? errorTypeOf)(err));
      throw err;
    } finally {
      span.end();
    }
  }

  /** A span whose end is someone else's business (a run, a step that settles later); OFF_SPAN while off. */
  startSpan(name: string, options: SpanOptions, parent?: Context): Span {
    return this.active ? this.active.tracer.startSpan(name, options, parent ?? context.active()) : OFF_SPAN;
  }

  /** `fn` with `span` as the active span (straight through while off). */
  withSpan<T>(span: Span, fn: () => T, parent?: Context): T {
    return this.active ? context.with(trace.setSpan(parent ?? context.active(), span), fn) : fn();
  }

  /**
   * The context an inbound request continues: its `traceparent`/`tracestate` headers when they are valid W3C
   * trace context, else the root (a malformed header starts a new trace; it is never an error).
   */
  extract(headers: Readonly<Record<string, string | string[] | undefined>>): Context {
    return this.active ? this.active.propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter) : ROOT_CONTEXT;
  }

  /** Adds `traceparent` (and `tracestate`) for `ctx` (default: the active context) to outgoing headers. */
  inject(headers: Record<string, string>, ctx?: Context): Record<string, string> {
    if (this.active) this.active.propagator.inject(ctx ?? context.active(), headers, defaultTextMapSetter);
    return headers;
  }

  /** The `traceparent`/`tracestate` headers of the active context for a request about to go out; undefined while off. */
  headers(): Record<string, string> | undefined {
    return this.active ? this.inject({}) : undefined;
  }

  /** The trace context of `ctx` (default: the active one) as text, for a record that outlives the call. */
  fields(ctx?: Context): TraceFields | undefined {
    if (!this.active) return undefined;
    const carrier: Record<string, string> = {};
    this.inject(carrier, ctx);
    return carrier.traceparent
      ? { traceparent: carrier.traceparent, ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}) }
      : undefined;
  }

  /** The context `fields` were taken from, or undefined when there are none (or they are not valid). */
  contextOf(fields: TraceFields | undefined): Context | undefined {
    if (!this.active || !fields?.traceparent) return undefined;
    const ctx = this.extract({ traceparent: fields.traceparent, tracestate: fields.tracestate });
    return trace.getSpanContext(ctx) ? ctx : undefined;
  }
}

/** Status ERROR with only the error's type: messages can quote a peer or a provider, so they stay out of spans. */
export function markFailed(span: Span, errorType: string): void {
  span.setAttribute(ATTR_ERROR_TYPE, errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
}
