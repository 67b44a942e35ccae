import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, MinLength } from 'class-validator';
import { Describe, NestedObject, StrictObject } from './schema-decorators';

/** OpenClaw's gateway auth modes (docs/admin-security.md#12-openclaw-gatewayauth). */
export const GATEWAY_AUTH_MODES = ['none', 'token', 'password', 'trusted-proxy'] as const;
export type GatewayAuthMode = (typeof GATEWAY_AUTH_MODES)[number];

@StrictObject('OpenClaw trusted-proxy auth: the identity-aware proxy in gateway.trustedProxies names the user.')
export class GatewayTrustedProxyAuthConfig {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @Describe('Header the proxy sets to the authenticated user (e.g. "x-forwarded-user").')
  userHeader!: string;

  @IsOptional()
  @IsBoolean()
  @Describe('Believe a proxy on this host (a loopback entry of gateway.trustedProxies). Unset: loopback proxies are not believed.')
  allowLoopback?: boolean;
}

@StrictObject(
  'OpenClaw gateway auth, mapped onto the admin API: token/password are admin bearer tokens, trusted-proxy is the SSO-proxy mode, none keeps the admin API on loopback.',
)
export class GatewayAuthConfig {
  @IsOptional()
  @IsIn(GATEWAY_AUTH_MODES)
  @Describe('none | token | password | trusted-proxy. Unset: token when a token is set, password when a password is set, else none.')
  mode?: GatewayAuthMode;

  @IsOptional()
  @IsString()
  @Describe('mode "token": the admin bearer token (role admin). Unset: OPENCLAW_GATEWAY_TOKEN. Use ${VAR}.')
  token?: string;

  @IsOptional()
  @IsString()
  @Describe('mode "password" (or the local fallback of trusted-proxy): sent as a bearer token (role admin). Unset: OPENCLAW_GATEWAY_PASSWORD.')
  password?: string;

  @IsOptional()
  @NestedObject(() => GatewayTrustedProxyAuthConfig)
  trustedProxy?: GatewayTrustedProxyAuthConfig;
}
