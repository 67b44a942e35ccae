import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { LOG_REDACT_PATHS } from './redact-paths';

/**
 * Structured JSON logs (pino). Level from CLAWGATE_LOG_LEVEL [info]. Secrets are removed by the logger
 * itself (redact paths), not by each call site.
 */
@Module({
  imports: [
    LoggerModule.forRoot({
      pinoHttp: {
        level: process.env.CLAWGATE_LOG_LEVEL || 'info',
        autoLogging: false,
        redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
        base: { service: 'clawgate' },
      },
    }),
  ],
})
export class LoggingModule {}
