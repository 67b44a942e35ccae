export { TelemetryModule } from './telemetry.module';
export { TelemetryService } from './telemetry.service';
