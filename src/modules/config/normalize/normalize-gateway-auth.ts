import { isTrustedAddress } from '../../../common/net/trusted-proxies';
import { CONFIG_DEFAULTS } from '../config-defaults';
import type { GatewaySettings } from '../config.types';
import type { GatewayAuthMode } from '../schema/gateway-auth.schema';
import type { GatewayConfig } from '../schema/gateway.schema';
import { isLoopbackHost, resolveBindHost, runsInContainer } from './gateway-bind';
import type { NormalizeContext } from './normalize-context';

type AdminSettings = GatewaySettings['admin'];

/** The environment variables OpenClaw reads when gateway.auth.token / .password are not written. */
export const GATEWAY_TOKEN_ENV = 'OPENCLAW_GATEWAY_TOKEN';
export const GATEWAY_PASSWORD_ENV = 'OPENCLAW_GATEWAY_PASSWORD';

/** The admin token names the OpenClaw shared secrets get (the audit log records `token:<name>`). */
export const AUTH_TOKEN_NAME = 'gateway.auth.token';
export const AUTH_PASSWORD_NAME = 'gateway.auth.password';

export interface GatewayAccess {
  bind: string;
  auth: GatewaySettings['auth'];
  admin: AdminSettings;
}

/**
 * Who may reach the gateway: `gateway.mode`, `gateway.bind` resolved to an address, and OpenClaw's
 * `gateway.auth` mapped onto clawgate's admin credentials (docs/admin-security.md#12-openclaw-gatewayauth):
 *
 * - `token` / `password`: the shared secret becomes one more admin bearer token (role admin), compared like
 *   every admin token (by digest, timing-safe) and masked like them.
 * - `trusted-proxy`: the SSO-proxy mode (`gateway.admin.sso`), with `gateway.trustedProxies` as the proxies and
 *   `trustedProxy.userHeader` as the user; every user the proxy lets through is admin, as in OpenClaw.
 * - `none` (or nothing): clawgate's own admin settings alone; without them the admin API answers loopback only.
 *
 * As in OpenClaw, listening beyond loopback with nothing that authenticates callers is an error.
 */
export function normalizeGatewayAccess(ctx: NormalizeContext, g: GatewayConfig | undefined, admin: AdminSettings): GatewayAccess {
  checkMode(ctx, g?.mode);
  const bind = resolveBind(ctx, g);
  const { mode, admin: withAuth } = applyAuth(ctx, g, admin);
  if (!isLoopbackHost(bind) && withAuth.tokens.length === 0 && !withAuth.sso.enabled) {
    const written = g?.bind ?? CONFIG_DEFAULTS.gateway.bind;
    const shown = ctx.quoter.quote('gateway.bind', written);
    ctx.errors.push({
      path: 'gateway.bind',
      message:
        `${shown} listens on ${bind}, beyond loopback, and nothing authenticates callers` +
        `${mode === 'none' && g?.auth?.mode === 'none' ? ' (gateway.auth.mode is "none")' : ''}: ` +
        'set gateway.auth (mode "token", "password" or "trusted-proxy") or gateway.admin.tokens, or bind "loopback"',
    });
  }
  return { bind, auth: { mode }, admin: withAuth };
}

function checkMode(ctx: NormalizeContext, mode: string | undefined): void {
  if (mode === undefined || mode === 'local') return;
  const shown = ctx.quoter.quote('gateway.mode', mode);
  if (mode === 'remote') {
    ctx.errors.push({
      path: 'gateway.mode',
      message: `${shown} makes this file a client of another gateway (gateway.remote); clawgate is the gateway itself: set "local" or remove the key`,
    });
  } else {
    ctx.warnings.push({ path: 'gateway.mode', message: `${shown} is not an OpenClaw gateway mode (local, remote); clawgate runs as "local"` });
  }
}

function resolveBind(ctx: NormalizeContext, g: GatewayConfig | undefined): string {
  const bind = g?.bind ?? CONFIG_DEFAULTS.gateway.bind;
  if (bind === 'custom' && g?.customBindHost === undefined) {
    ctx.errors.push({ path: 'gateway.customBindHost', message: 'is required with bind "custom" (the IP address to listen on)' });
  }
  if (g?.customBindHost !== undefined && bind !== 'custom') {
    ctx.warnings.push({ path: 'gateway.customBindHost', message: `is used only with bind "custom"; bind is ${ctx.quoter.quote('gateway.bind', bind)}` });
  }
  const resolved = resolveBindHost(bind, g?.customBindHost, bind === 'auto' && runsInContainer(ctx.env));
  if (resolved.fallback) ctx.warnings.push({ path: 'gateway.bind', message: `"${bind}": ${resolved.fallback}` });
  return resolved.host;
}

interface SharedSecret {
  /** The value, when known. */
  value?: string;
  /** Written in the file (even when its ${VAR} is unset) or given by the environment variable. */
  configured: boolean;
}

/** gateway.auth.token / .password, else the environment variable; a written ${VAR} that is unset does not fall back. */
function sharedSecret(ctx: NormalizeContext, written: string | undefined, path: string, envName: string): SharedSecret {
  if (written !== undefined && written !== '') return { value: written, configured: true };
  if (ctx.unusableSecretPaths.has(path)) return { configured: true };
  const fromEnv = ctx.env[envName];
  return fromEnv ? { value: fromEnv, configured: true } : { configured: false };
}

type AuthApplied = { mode: GatewayAuthMode; admin: AdminSettings };

function applyAuth(ctx: NormalizeContext, g: GatewayConfig | undefined, admin: AdminSettings): AuthApplied {
  const auth = g?.auth;
  const token = sharedSecret(ctx, auth?.token, 'gateway.auth.token', GATEWAY_TOKEN_ENV);
  const password = sharedSecret(ctx, auth?.password, 'gateway.auth.password', GATEWAY_PASSWORD_ENV);
  let mode = auth?.mode;
  if (mode === undefined) {
    if (token.configured && password.configured) {
      ctx.errors.push({
        path: 'gateway.auth.mode',
        message: `is required when both a token and a password are configured (gateway.auth.token or ${GATEWAY_TOKEN_ENV}, gateway.auth.password or ${GATEWAY_PASSWORD_ENV}): set "token" or "password"`,
      });
      return { mode: 'none', admin };
    }
    mode = token.configured ? 'token' : password.configured ? 'password' : 'none';
  }
  switch (mode) {
    case 'token':
      return { mode, admin: withSecret(ctx, admin, token, AUTH_TOKEN_NAME, 'gateway.auth.token', GATEWAY_TOKEN_ENV, mode) };
    case 'password':
      return { mode, admin: withSecret(ctx, admin, password, AUTH_PASSWORD_NAME, 'gateway.auth.password', GATEWAY_PASSWORD_ENV, mode) };
    case 'trusted-proxy':
      return { mode, admin: withTrustedProxy(ctx, g, admin, token, password) };
    case 'none':
      for (const [secret, path] of [
        [token, 'gateway.auth.token'],
        [password, 'gateway.auth.password'],
      ] as const) {
        if (secret.configured && (auth?.token !== undefined || auth?.password !== undefined)) {
          ctx.warnings.push({ path, message: 'is not used: gateway.auth.mode is "none"' });
        }
      }
      return { mode, admin };
  }
}

/** The shared secret as one more admin token; unknown (unset) it still counts as configured and matches nobody. */
function withSecret(
  ctx: NormalizeContext,
  admin: AdminSettings,
  secret: SharedSecret,
  name: string,
  path: string,
  envName: string,
  mode: GatewayAuthMode,
): AdminSettings {
  if (!secret.configured) {
    ctx.warnings.push({
      path,
      message: `is not set (nor ${envName}), so gateway.auth.mode "${mode}" accepts no credential: the admin API refuses everyone until it is`,
    });
  }
  const duplicate = secret.value !== undefined && admin.tokens.findIndex((t) => t.token === secret.value);
  if (typeof duplicate === 'number' && duplicate >= 0) {
    ctx.errors.push({
      path,
      message: `is the same as gateway.admin.tokens[${duplicate}].token; every admin credential needs its own value`,
    });
  }
  return { ...admin, tokens: [...admin.tokens, { name, token: secret.value, role: 'admin' as const }] };
}

function withTrustedProxy(
  ctx: NormalizeContext,
  g: GatewayConfig | undefined,
  admin: AdminSettings,
  token: SharedSecret,
  password: SharedSecret,
): AdminSettings {
  const proxy = g?.auth?.trustedProxy;
  if (!proxy) {
    ctx.errors.push({ path: 'gateway.auth.trustedProxy.userHeader', message: 'is required with mode "trusted-proxy" (the header the proxy sets to the user)' });
  }
  if (token.configured) {
    ctx.errors.push({
      path: 'gateway.auth.token',
      message: `cannot be combined with mode "trusted-proxy" (nor can ${GATEWAY_TOKEN_ENV}): a shared token would let callers around the proxy; use gateway.auth.password for same-host callers`,
    });
  }
  if (admin.sso.enabled) {
    ctx.errors.push({
      path: 'gateway.auth.mode',
      message: '"trusted-proxy" and gateway.admin.sso both configure the SSO proxy: keep one',
    });
  }
  const listed = g?.trustedProxies ?? [];
  // OpenClaw does not believe a proxy on the gateway's own host unless told to: any local process could claim to be it.
  const loopback = proxy?.allowLoopback ? [] : listed.filter((cidr) => isTrustedAddress('127.0.0.1', [cidr]) || isTrustedAddress('::1', [cidr]));
  const proxies = listed.filter((cidr) => !loopback.includes(cidr));
  if (loopback.length) {
    ctx.warnings.push({
      path: 'gateway.trustedProxies',
      message: `loopback entries are not believed for trusted-proxy auth unless gateway.auth.trustedProxy.allowLoopback is true: ${loopback
        .map((cidr) => ctx.quoter.quote(['gateway', 'trustedProxies', listed.indexOf(cidr)], cidr))
        .join(', ')}`,
    });
  }
  if (proxies.length === 0) {
    ctx.errors.push({
      path: 'gateway.trustedProxies',
      message: 'must list the identity-aware proxy (its address or CIDR block) with gateway.auth.mode "trusted-proxy"',
    });
  }
  const tokens = password.configured ? [...admin.tokens, { name: AUTH_PASSWORD_NAME, token: password.value, role: 'admin' as const }] : admin.tokens;
  return {
    ...admin,
    tokens,
    sso: {
      ...admin.sso,
      enabled: true,
      trustedProxies: proxies,
      userHeader: proxy?.userHeader ?? admin.sso.userHeader,
      // Every user the proxy lets through may administer the gateway, as OpenClaw grants them the full operator scopes.
      defaultRole: 'admin',
    },
  };
}
