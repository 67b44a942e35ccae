import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsIP, IsOptional, IsString, IsUrl, Max, Min, MinLength, IsArray, IsDefined } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, IsBind, IsCidr, NestedArray, NestedObject, NoUrlCredentials, StrictObject, StringMap } from './schema-decorators';
import { ADMIN_ROLES, AdminRole } from '../../../common/auth/roles';
import { GatewayHttpConfig } from './gateway-http.schema';
import { GatewayStateConfig } from './gateway-state.schema';
import { GatewayTelemetryConfig } from './gateway-telemetry.schema';
import { GatewayClusterConfig } from './gateway-cluster.schema';
import { GatewayMetricsConfig } from './gateway-metrics.schema';
import { GatewayAuthConfig } from './gateway-auth.schema';
import { GatewayTlsConfig } from './gateway-tls.schema';

const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

@StrictObject('How the gateway notices edits of openclaw.json.')
export class GatewayReloadConfig {
  @IsOptional()
  @IsIn(['hybrid', 'off'])
  @Describe('hybrid: watch the file and apply valid edits live; off: reload only via the admin API.')
  @Default(CONFIG_DEFAULTS.gateway.reload.mode)
  mode?: 'hybrid' | 'off';

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60000)
  @Describe('Quiet time after the last change before reloading, in ms.')
  @Default(CONFIG_DEFAULTS.gateway.reload.debounceMs)
  debounceMs?: number;
}

@StrictObject('A bearer token for the admin API.')
export class AdminTokenConfig {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @Describe('Who holds the token; shown in the audit log.')
  name!: string;

  @IsDefined()
  @IsString()
  @MinLength(1)
  @Describe('The secret. Use ${VAR} so it is not committed.')
  token!: string;

  @IsDefined()
  @IsIn(ADMIN_ROLES)
  role!: AdminRole;
}

@StrictObject('Verify a signed identity assertion set by the SSO proxy.')
export class SsoJwtConfig {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('Header carrying the JWT.')
  @Default(CONFIG_DEFAULTS.gateway.admin.sso.jwt.header)
  header?: string;

  @IsDefined()
  @NoUrlCredentials('the key set is public and fetched without credentials')
  @IsUrl(URL_OPTIONS)
  jwksUrl!: string;

  @IsOptional() @IsString() issuer?: string;
  @IsOptional() @IsString() audience?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  algorithms?: string[];
}

@StrictObject('Identity from an SSO reverse proxy.')
export class SsoConfig {
  @IsOptional()
  @IsBoolean()
  @Default(CONFIG_DEFAULTS.gateway.admin.sso.enabled)
  enabled?: boolean;

  @IsOptional()
  @IsArray()
  @IsCidr()
  @Describe('Only TCP peers inside these blocks may assert identity headers.')
  @Default(CONFIG_DEFAULTS.gateway.admin.sso.trustedProxies)
  trustedProxies?: string[];

  @IsOptional()
  @IsString()
  @Default(CONFIG_DEFAULTS.gateway.admin.sso.userHeader)
  userHeader?: string;
  @IsOptional()
  @IsString()
  @Default(CONFIG_DEFAULTS.gateway.admin.sso.emailHeader)
  emailHeader?: string;
  @IsOptional()
  @IsString()
  @Default(CONFIG_DEFAULTS.gateway.admin.sso.groupsHeader)
  groupsHeader?: string;

  @IsOptional()
  @NestedObject(() => SsoJwtConfig)
  jwt?: SsoJwtConfig;

  @IsOptional()
  @StringMap({ enum: ADMIN_ROLES }, 'Group name → role.')
  @Default(CONFIG_DEFAULTS.gateway.admin.sso.roleMapping)
  roleMapping?: Record<string, AdminRole>;

  @IsOptional()
  @IsIn(['none', ...ADMIN_ROLES])
  @Default(CONFIG_DEFAULTS.gateway.admin.sso.defaultRole)
  defaultRole?: 'none' | AdminRole;
}

@StrictObject('Admin API access.')
export class AdminConfig {
  @IsOptional()
  @NestedArray(() => AdminTokenConfig)
  @Default(CONFIG_DEFAULTS.gateway.admin.tokens)
  tokens?: AdminTokenConfig[];

  @IsOptional()
  @NestedObject(() => SsoConfig)
  sso?: SsoConfig;

  @IsOptional()
  @IsBoolean()
  @Describe('Serve /docs without authentication.')
  @Default(CONFIG_DEFAULTS.gateway.admin.publicDocs)
  publicDocs?: boolean;
}

@StrictObject('The HTTP listener. port, bind, telemetry, state and cluster need a restart; everything else is hot.')
export class GatewayConfig {
  @IsOptional()
  // Deployments write `"${PORT}"` or `"${PORT:-18789}"` (a variable's value is a string): digits only become the number.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]{1,5}$/.test(value) ? Number(value) : value))
  @IsInt()
  @Min(0)
  @Max(65535)
  @Describe('Listening port; 0 picks a free port. A string of digits (the value of `${PORT}`) is read as the number. Restart needed.')
  @Default(CONFIG_DEFAULTS.gateway.port)
  port?: number;

  @IsOptional()
  @IsString()
  @Describe('OpenClaw: "local" runs the gateway, which is what clawgate does; "remote" (a client of another gateway) is refused, any other value warned about.')
  mode?: string;

  @IsOptional()
  @IsBind()
  @Describe(
    'Listening address: loopback (127.0.0.1), lan (0.0.0.0), auto (0.0.0.0 in a container, else loopback), custom (customBindHost), tailnet (loopback, with a warning), or an IP address. Beyond loopback the gateway needs auth (gateway.auth or gateway.admin). Restart needed.',
  )
  @Default(CONFIG_DEFAULTS.gateway.bind)
  bind?: string;

  @IsOptional()
  @IsIP()
  @Describe('The address bind "custom" listens on. Restart needed.')
  customBindHost?: string;

  @IsOptional()
  @NestedObject(() => GatewayAuthConfig)
  auth?: GatewayAuthConfig;

  @IsOptional()
  @IsArray()
  @IsCidr()
  @Describe('Reverse proxies whose X-Forwarded-* headers are believed.')
  @Default(CONFIG_DEFAULTS.gateway.trustedProxies)
  trustedProxies?: string[];

  @IsOptional()
  @NoUrlCredentials('it is the origin shown to clients')
  @IsUrl(URL_OPTIONS)
  @Describe('The public origin of this gateway, when behind a proxy.')
  publicUrl?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600_000)
  @Describe(
    'On SIGTERM, how long the runs in flight may go on to finish (new messages are refused meanwhile) before the rest are aborted; 0 aborts at once.',
  )
  @Default(CONFIG_DEFAULTS.gateway.drainMs)
  drainMs?: number;

  @IsOptional()
  @NestedObject(() => GatewayReloadConfig)
  reload?: GatewayReloadConfig;

  @IsOptional()
  @NestedObject(() => GatewayTlsConfig)
  tls?: GatewayTlsConfig;

  @IsOptional()
  @NestedObject(() => AdminConfig)
  admin?: AdminConfig;

  @IsOptional()
  @NestedObject(() => GatewayHttpConfig)
  http?: GatewayHttpConfig;

  @IsOptional()
  @NestedObject(() => GatewayTelemetryConfig)
  telemetry?: GatewayTelemetryConfig;

  @IsOptional()
  @NestedObject(() => GatewayMetricsConfig)
  metrics?: GatewayMetricsConfig;

  @IsOptional()
  @NestedObject(() => GatewayStateConfig)
  state?: GatewayStateConfig;
  @NestedObject(() => GatewayClusterConfig)
  cluster?: GatewayClusterConfig;
}
