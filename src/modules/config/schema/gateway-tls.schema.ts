import { IsBoolean, IsOptional, IsString, MinLength } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, StrictObject } from './schema-decorators';

@StrictObject('HTTPS on the gateway listener (OpenClaw gateway.tls). Restart needed.')
export class GatewayTlsConfig {
  @IsOptional()
  @IsBoolean()
  @Describe('Serve HTTPS with certPath and keyPath instead of HTTP. Restart needed.')
  @Default(CONFIG_DEFAULTS.gateway.tls.enabled)
  enabled?: boolean;

  @IsOptional()
  @IsBoolean()
  @Describe('OpenClaw makes a self-signed pair when no files are given; clawgate does not: true is an error.')
  autoGenerate?: boolean;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('The certificate (PEM, with its chain); `~` and relative paths as for other paths of the file. Restart needed.')
  certPath?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('The private key (PEM); keep it readable only by the gateway. Restart needed.')
  keyPath?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('CA bundle (PEM) of the chain served with the certificate. Restart needed.')
  caPath?: string;
}
