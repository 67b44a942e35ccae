import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { traceLogFields } from './log-trace-fields';
import { Tracing } from './tracing';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('Tracing', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const manager = new AsyncLocalStorageContextManager();

  beforeAll(() => context.setGlobalContextManager(manager.enable()));
  afterAll(async () => {
    context.disable();
    await provider.shutdown();
  });
  beforeEach(() => exporter.reset());

  const on = () => {
    const tracing = new Tracing();
    tracing.activate({ tracer: provider.getTracer('test'), propagator: new W3CTraceContextPropagator() });
    return tracing;
  };

  it('while off calls straight through: no span, no header, no trace fields', async () => {
    const tracing = new Tracing();
    expect(tracing.enabled).toBe(false);
    const value = await tracing.inSpan('x', {}, async (span) => {
      expect(span.isRecording()).toBe(false);
      return 42;
    });
    expect(value).toBe(42);
    expect(tracing.headers()).toBeUndefined();
    expect(tracing.fields()).toBeUndefined();
    expect(tracing.inject({ a: 'b' })).toEqual({ a: 'b' });
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it('continues a valid traceparent and starts a new trace for a malformed one', async () => {
    const tracing = on();
    await tracing.inSpan('continued', { parent: tracing.extract({ traceparent: PARENT, tracestate: 'vendor=1' }) }, async () => undefined);
    for (const bad of [
      '00-xyz',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    ]) {
      await tracing.inSpan('fresh', { parent: tracing.extract({ traceparent: bad }) }, async () => undefined);
    }
    const [continued, ...fresh] = exporter.getFinishedSpans();
    expect(continued.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(continued.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(continued.spanContext().traceState?.get('vendor')).toBe('1');
    for (const span of fresh) {
      expect(span.spanContext().traceId).not.toBe('4bf92f3577b34da6a3ce929d0e0e4736');
      expect(span.parentSpanContext).toBeUndefined();
    }
  });

  it('carries a span as trace fields and makes a later span its child from them', async () => {
    const tracing = on();
    let fields: ReturnType<Tracing['fields']>;
    await tracing.inSpan('sender', {}, async () => {
      fields = tracing.fields();
      expect(tracing.headers()?.traceparent).toBe(fields?.traceparent);
    });
    const later = tracing.contextOf(fields);
    expect(later).toBeDefined();
    await tracing.inSpan('receiver', { parent: later }, async () => undefined);
    const [sender, receiver] = exporter.getFinishedSpans();
    expect(receiver.spanContext().traceId).toBe(sender.spanContext().traceId);
    expect(receiver.parentSpanContext?.spanId).toBe(sender.spanContext().spanId);
    expect(tracing.contextOf({ traceparent: 'garbage' })).toBeUndefined();
    expect(tracing.contextOf(undefined)).toBeUndefined();
  });

  it('marks a failure ERROR with its type only, never its message, and rethrows it', async () => {
    const tracing = on();
    const secretish = new AppError(ErrorCode.UpstreamFailed, 'provider said: key sk-live-123 is wrong');
    await expect(tracing.inSpan('failing', {}, () => Promise.reject(secretish))).rejects.toBe(secretish);
    const [span] = exporter.getFinishedSpans();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'UPSTREAM_FAILED' });
    expect(span.attributes['error.type']).toBe('UPSTREAM_FAILED');
    expect(JSON.stringify({ attributes: span.attributes, status: span.status, events: span.events })).not.toContain('sk-live-123');
  });

  it('gives log lines the trace and span id of the active span, and nothing outside one', async () => {
    const tracing = on();
    expect(traceLogFields()).toEqual({});
    await tracing.inSpan('logged', {}, async () => {
      const active = trace.getActiveSpan()!.spanContext();
      expect(traceLogFields()).toEqual({ trace_id: active.traceId, span_id: active.spanId });
    });
  });
});
