import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
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

/**
 * Structured logs (pino): JSON lines or pretty ones (log-settings.ts), ISO timestamps. Secrets are removed by the
 * logger itself, not by each call site: redact paths blank known secret fields, the request serializer blanks the
 * secret headers the config names (secret-headers.ts), and the destination masks the exact values of the
 * configured secrets wherever they appear in a line (see secret-mask.ts). A line written while a request is handled
 * carries its `reqId` (and nothing else of the request); one written while a span is active its `trace_id` and
 * `span_id` (docs/telemetry.md#logs).
 */
@Module({})
export class LoggingModule {
  static forRoot(settings: LogSettings): DynamicModule {
    // nestjs-pino keeps the logger of lines outside any request in a module variable, made by the first app of the
    // process and then kept: dropped here so each gateway's lines follow its own settings (tests boot several
    // gateways in one process; what runs in one process at a time is one gateway, whose settings then apply).
    __resetOutOfContextForTests();
    setLogThreshold(settings.level);
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
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
                req: (req: { headers?: Record<string, unknown> }) =>
                  req.headers ? { ...req, headers: redactSecretHeaders(req.headers) } : req,
              },
              base: { service: 'clawgate' },
              mixin: traceLogFields,
            },
            logDestination(settings),
          ],
        }),
      ],
      providers: [GatewayLogger, ShutdownLog],
      exports: [LoggerModule, GatewayLogger],
    };
  }
}
