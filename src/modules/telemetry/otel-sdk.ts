import { context, diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { ActiveTelemetry } from '../../common/telemetry/tracing';

/**
 * The OpenTelemetry SDK of one gateway, loaded (by a dynamic import) only when `gateway.telemetry.enabled` is
 * true. The tracer provider is the gateway's own, never registered as the process-wide global, so two gateways
 * in one process export each with its own service name. What is process-wide by nature is shared and counted:
 * the AsyncLocalStorage context manager (one per process carries the active span through async calls) and the
 * diagnostics logger. Exporter, batching and sampling read the standard `OTEL_*` variables as the SDK does
 * (docs/telemetry.md#configuration); `sampleRatio`, when set, replaces OTEL_TRACES_SAMPLER.
 */
export interface OtelSdkOptions {
  /** gateway.telemetry.serviceName; else OTEL_SERVICE_NAME; else "clawgate". */
  serviceName?: string;
  serviceVersion: string;
  /** gateway.telemetry.sampleRatio: a parent-based ratio sampler; unset = the SDK's OTEL_TRACES_SAMPLER. */
  sampleRatio?: number;
  /** Where the SDK's own warnings go (an export that failed). */
  diagnostics: DiagLogger;
}

export interface RunningOtelSdk {
  telemetry: ActiveTelemetry;
  serviceName: string;
  /** Flushes what is batched and stops exporting. */
  shutdown(): Promise<void>;
}

/** Gateways of this process whose SDK is running; the context manager lives while one is. */
let running = 0;
let ownsContextManager = false;

export function startOtelSdk(options: OtelSdkOptions): RunningOtelSdk {
  const serviceName = options.serviceName ?? (process.env.OTEL_SERVICE_NAME?.trim() || 'clawgate');
  const resource = defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName, [ATTR_SERVICE_VERSION]: options.serviceVersion }));
  const sampler =
    options.sampleRatio === undefined ? undefined : new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.sampleRatio) });
  const provider = new NodeTracerProvider({
    resource,
    ...(sampler ? { sampler } : {}),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  if (running++ === 0) {
    ownsContextManager = context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    diag.setLogger(options.diagnostics, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  }
  let stopped: Promise<void> | undefined;
  return {
    serviceName,
    telemetry: { tracer: provider.getTracer('clawgate', options.serviceVersion), propagator: new W3CTraceContextPropagator() },
    shutdown: () =>
      (stopped ??= provider.shutdown().finally(() => {
        if (--running > 0) return;
        if (ownsContextManager) context.disable();
        ownsContextManager = false;
        diag.disable();
      })),
  };
}
