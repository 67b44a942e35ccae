import { IsOptional, IsString, MinLength } from 'class-validator';
import { Describe, StrictObject } from './schema-decorators';

@StrictObject(
  'Who may read GET /metrics. Without a token anyone may, and the names the public Agent Card does not show (agents it does not list, peers, key and provider names) are counted as "other".',
)
export class GatewayMetricsConfig {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('Bearer token GET /metrics then requires (401 without it); it answers with every name. Use ${VAR}.')
  token?: string;
}
