import { Global, Module } from '@nestjs/common';
import { Tracing } from '../../common/telemetry/tracing';
import { TelemetryService } from './telemetry.service';

/**
 * The gateway's `Tracing` (one per gateway, global so every module that makes spans gets the same) and the
 * service that switches it on from `gateway.telemetry` (docs/telemetry.md).
 */
@Global()
@Module({ providers: [Tracing, TelemetryService], exports: [Tracing, TelemetryService] })
export class TelemetryModule {}
