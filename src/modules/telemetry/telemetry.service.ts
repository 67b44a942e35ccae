import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { DiagLogger } from '@opentelemetry/api';
import { Tracing } from '../../common/telemetry/tracing';
import { ConfigStore } from '../config';
import type { RunningOtelSdk } from './otel-sdk';

/** Protocols of OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL this exporter speaks: OTLP over HTTP with JSON bodies. */
const SPOKEN_PROTOCOL = 'http/json';

/**
 * Turns tracing on at boot when `gateway.telemetry.enabled` is true (docs/telemetry.md): loads the OpenTelemetry
 * SDK — only then, so a gateway without telemetry never loads it — and hands its tracer to the gateway's
 * `Tracing`. `enabled` and `serviceName` are read once at start (a change waits for a restart, listed in
 * `pendingRestart`); on shutdown, after every other part has stopped, what is batched is exported.
 */
@Injectable()
export class TelemetryService implements OnApplicationShutdown {
  private readonly logger = new Logger('telemetry');
  private sdk?: RunningOtelSdk;

  constructor(
    private readonly config: ConfigStore,
    private readonly tracing: Tracing,
  ) {}

  /** Call once the config is loaded, before the HTTP server is set up. */
  async start(): Promise<void> {
    const settings = this.config.current().config.gateway.telemetry;
    if (!settings.enabled || this.sdk) return;
    if (process.env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') {
      this.logger.warn('gateway.telemetry.enabled is true but OTEL_SDK_DISABLED=true: tracing stays off');
      return;
    }
    const protocol = (process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim();
    if (protocol && protocol !== SPOKEN_PROTOCOL) {
      this.logger.warn(`the trace exporter speaks OTLP ${SPOKEN_PROTOCOL} only; the configured protocol "${protocol}" is not used`);
    }
    const { startOtelSdk } = await import('./otel-sdk');
    this.sdk = startOtelSdk({
      serviceName: settings.serviceName,
      serviceVersion: process.env.npm_package_version ?? '0.1.0',
      sampleRatio: settings.sampleRatio,
      diagnostics: this.diagnostics(),
    });
    this.tracing.activate(this.sdk.telemetry);
    this.logger.log(`tracing on: service ${this.sdk.serviceName}, traces exported over OTLP/HTTP (${exportTarget()})`);
  }

  async onApplicationShutdown(): Promise<void> {
    const sdk = this.sdk;
    this.sdk = undefined;
    this.tracing.deactivate();
    await sdk?.shutdown().catch((err: Error) => this.logger.warn(`exporting the last spans failed: ${err.message}`));
  }

  /** The SDK's own warnings (an export that failed) in the gateway's log, one logger for every level. */
  private diagnostics(): DiagLogger {
    const say = (message: string, ...args: unknown[]) => this.logger.warn([message, ...args.map(String)].join(' '));
    return { error: say, warn: say, info: () => undefined, debug: () => undefined, verbose: () => undefined };
  }
}

/** Where spans go, for the boot line: the host of the endpoint the exporter reads from the environment. */
function exportTarget(): string {
  const raw = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!raw?.trim()) return 'the default endpoint localhost:4318';
  try {
    return `host ${new URL(raw).host}`;
  } catch {
    return 'an endpoint that is not a URL: the exporter will report it';
  }
}
