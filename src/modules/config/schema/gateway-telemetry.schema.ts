import { IsBoolean, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, StrictObject } from './schema-decorators';

@StrictObject(
  'OpenTelemetry tracing (docs/telemetry.md): spans exported over OTLP/HTTP, configured by the standard OTEL_* variables. Restart needed.',
)
export class GatewayTelemetryConfig {
  @IsOptional()
  @IsBoolean()
  @Describe('Trace requests, runs, model and tool calls and outbound A2A; false loads no SDK at all. Restart needed.')
  @Default(CONFIG_DEFAULTS.gateway.telemetry.enabled)
  enabled?: boolean;

  @IsOptional()
  @IsString()
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  @Matches(/^(?=.*\S)[^\u0000-\u001f\u007f]+$/, { message: 'must be a name with a visible character and no control characters' })
  @MaxLength(255)
  @Describe('service.name of the spans; unset: OTEL_SERVICE_NAME, else "clawgate". Restart needed.')
  serviceName?: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  @Describe(
    'Share of new traces recorded (0–1); a request that carries a trace context follows its sampled flag. Unset: OTEL_TRACES_SAMPLER. Restart needed.',
  )
  sampleRatio?: number;
}
