import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule, type Params, PinoLogger } from 'nestjs-pino';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { stdTimeFunctions } from 'pino';
import { LOG_CENSOR, LOG_REDACT_PATHS, redactNestedSecrets } from '../secrets/log-redact-paths';
import { redactSecretHeaders } from '../secrets/secret-headers';
import { traceLogFields } from '../telemetry/log-trace-fields';
import { GatewayLogger } from './gateway-logger';
import { logDestination } from './log-destination';
import { setLogThreshold } from './log-level-gate';
import type { LogSettings } from './log-settings';
import { requestIdOf } from './request-context';
import { ShutdownLog } from './shutdown-log';

/** One gateway's logging, made before its module graph: pino's settings and the gateway's Nest logger over them. */
export interface GatewayLogging {
  /** nestjs-pino's parameters: pino's options and the destination. */
  readonly params: Params;
  /** The gateway's Nest logger: bootstrap makes it Nest's logger before the config is loaded, and hands it to the graph. */
  readonly logger: GatewayLogger;
}

/**
 * Structured logs (pino): JSON lines or pretty ones (log-settings.ts), ISO timestamps. Secrets are removed by the
 * logger itself, not by each call site: redact paths blank known secret fields, the request serializer blanks the
 * secret headers the config names (secret-headers.ts), and the destination masks the exact values of the
 * configured secrets wherever they appear in a line (see secret-mask.ts). A line written while a request is handled
 * carries its `reqId` (and nothing else of the request); one written while a span is active its `trace_id` and
 * `span_id` (docs/telemetry.md#logs).
 *
 * Made before the module graph, so that what happens before it (the config's load) is logged like the rest.
 */
export function gatewayLogging(settings: LogSettings): GatewayLogging {
  // nestjs-pino keeps the logger of lines outside any request in a module variable, made by the first PinoLogger of the
  // process and then kept: dropped here so each gateway's lines follow its own settings (tests boot several gateways in
  // one process; what runs in one process at a time is one gateway, whose settings then apply).
  __resetOutOfContextForTests();
  setLogThreshold(settings.level);
  const params: Params = {
    pinoHttp: [
      {
        level: settings.level,
        autoLogging: false,
        quietReqLogger: true,
        genReqId: requestIdOf,
        timestamp: stdTimeFunctions.isoTime,
        redact: { paths: LOG_REDACT_PATHS, censor: LOG_CENSOR },
        formatters: { log: redactNestedSecrets },
        // pino-http hands this the standard serialization of the request, whose headers are the live ones.
        serializers: {
          req: (req: { headers?: Record<string, unknown> }) => (req.headers ? { ...req, headers: redactSecretHeaders(req.headers) } : req),
        },
        base: { service: 'clawgate' },
        mixin: traceLogFields,
      },
      logDestination(settings),
    ],
  };
  // The first PinoLogger since the reset: it makes the out-of-request logger every later one of this gateway shares.
  return { params, logger: new GatewayLogger(new PinoLogger(params), params) };
}

/** The gateway's logging in the module graph: its logger, pino's request logging, and the shutdown line. */
@Module({})
export class LoggingModule {
  static forRoot(logging: GatewayLogging): DynamicModule {
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot(logging.params)],
      providers: [{ provide: GatewayLogger, useValue: logging.logger }, ShutdownLog],
      exports: [LoggerModule, GatewayLogger],
    };
  }
}
