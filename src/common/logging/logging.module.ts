import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { maskingDestination } from '../secrets/masking-destination';
import { LOG_REDACT_PATHS } from '../secrets/log-redact-paths';
import { redactSecretHeaders } from '../secrets/secret-headers';
import { traceLogFields } from '../telemetry/log-trace-fields';

/**
 * Structured JSON logs (pino). Level from CLAWGATE_LOG_LEVEL [info]. Secrets are removed by the logger
 * itself, not by each call site: redact paths blank known secret fields, the request serializer blanks the
 * secret headers the config names (secret-headers.ts), and the destination masks the exact values of the
 * configured secrets wherever they appear in a line (see secret-mask.ts). A line written while a span is active
 * carries its `trace_id` and `span_id` (docs/telemetry.md#logs).
 */
@Module({
  imports: [
    LoggerModule.forRoot({
      pinoHttp: [
        {
          level: process.env.CLAWGATE_LOG_LEVEL || 'info',
          autoLogging: false,
          redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
          // pino-http hands this the standard serialization of the request, whose headers are the live ones.
          serializers: {
            req: (req: { headers?: Record<string, unknown> }) =>
              req.headers ? { ...req, headers: redactSecretHeaders(req.headers) } : req,
          },
          base: { service: 'clawgate' },
          mixin: traceLogFields,
        },
        maskingDestination(),
      ],
    }),
  ],
})
export class LoggingModule {}
