import {
  IsBoolean,
  IsIn,
  IsInt,
  IsIP,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
  IsArray,
  IsDefined,
} from 'class-validator';
import {
  Describe,
  IsCidr,
  NestedArray,
  NestedObject,
  StrictObject,
  StringMap,
} from './schema-decorators';
import { ADMIN_ROLES, AdminRole } from '../../../common/auth/roles';

const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

@StrictObject('How the gateway notices edits of openclaw.json.')
export class GatewayReloadConfig {
  @IsOptional() @IsIn(['hybrid', 'off'])
  @Describe('hybrid [default]: watch the file and apply valid edits live; off: reload only via the admin API.')
  mode?: 'hybrid' | 'off';

  @IsOptional() @IsInt() @Min(0) @Max(60000)
  @Describe('Quiet time after the last change before reloading, in ms [300].')
  debounceMs?: number;
}

@StrictObject('A bearer token for the admin API.')
export class AdminTokenConfig {
  @IsDefined() @IsString() @MinLength(1)
  @Describe('Who holds the token; shown in the audit log.')
  name!: string;

  @IsDefined() @IsString() @MinLength(1)
  @Describe('The secret. Use ${VAR} so it is not committed.')
  token!: string;

  @IsDefined() @IsIn(ADMIN_ROLES)
  role!: AdminRole;
}

@StrictObject('Verify a signed identity assertion set by the SSO proxy.')
export class SsoJwtConfig {
  @IsOptional() @IsString() @MinLength(1)
  @Describe('Header carrying the JWT [X-Forwarded-Access-Token].')
  header?: string;

  @IsDefined() @IsUrl(URL_OPTIONS)
  jwksUrl!: string;

  @IsOptional() @IsString() issuer?: string;
  @IsOptional() @IsString() audience?: string;

  @IsOptional() @IsArray() @IsString({ each: true })
  algorithms?: string[];
}

@StrictObject('Identity from an SSO reverse proxy.')
export class SsoConfig {
  @IsOptional() @IsBoolean() enabled?: boolean;

  @IsOptional() @IsArray() @IsCidr()
  @Describe('Only TCP peers inside these blocks may assert identity headers.')
  trustedProxies?: string[];

  @IsOptional() @IsString() userHeader?: string;
  @IsOptional() @IsString() emailHeader?: string;
  @IsOptional() @IsString() groupsHeader?: string;

  @IsOptional() @NestedObject(() => SsoJwtConfig)
  jwt?: SsoJwtConfig;

  @IsOptional() @StringMap({ enum: ADMIN_ROLES }, 'Group name → role.')
  roleMapping?: Record<string, AdminRole>;

  @IsOptional() @IsIn(['none', ...ADMIN_ROLES])
  defaultRole?: 'none' | AdminRole;
}

@StrictObject('Admin API access.')
export class AdminConfig {
  @IsOptional() @NestedArray(() => AdminTokenConfig)
  tokens?: AdminTokenConfig[];

  @IsOptional() @NestedObject(() => SsoConfig)
  sso?: SsoConfig;

  @IsOptional() @IsBoolean()
  @Describe('Serve /docs without authentication [false].')
  publicDocs?: boolean;
}

@StrictObject('The HTTP listener. port and bind need a restart; everything else is hot.')
export class GatewayConfig {
  @IsOptional() @IsInt() @Min(0) @Max(65535)
  @Describe('Listening port [18789]; 0 picks a free port. Restart needed.')
  port?: number;

  @IsOptional() @IsIP()
  @Describe('Listening address [127.0.0.1]. Restart needed.')
  bind?: string;

  @IsOptional() @IsArray() @IsCidr()
  @Describe('Reverse proxies whose X-Forwarded-* headers are believed.')
  trustedProxies?: string[];

  @IsOptional() @IsUrl(URL_OPTIONS)
  @Describe('The public origin of this gateway, when behind a proxy.')
  publicUrl?: string;

  @IsOptional() @NestedObject(() => GatewayReloadConfig)
  reload?: GatewayReloadConfig;

  @IsOptional() @NestedObject(() => AdminConfig)
  admin?: AdminConfig;
}
