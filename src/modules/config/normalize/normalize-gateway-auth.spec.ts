import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../pipeline/load-config';
import { formatConfigIssue } from '../pipeline/config-issue';
import { resolveBindHost } from './gateway-bind';

let dir: string;
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-auth-'))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The whole pipeline on a `gateway` section (JSON5 text), as the gateway loads it. */
async function load(gateway: string, env: NodeJS.ProcessEnv = {}) {
  const result = await loadConfig({
    configPath: path.join(dir, 'openclaw.json'),
    stateDir: path.join(dir, 'state'),
    homeDir: dir,
    env,
    rootText: `{ gateway: ${gateway} }`,
  });
  const warnings = result.warnings.map(formatConfigIssue);
  if (!result.ok) return { errors: result.errors.map(formatConfigIssue), warnings, gateway: undefined };
  return { errors: [], warnings, gateway: result.snapshot.config.gateway };
}

describe('gateway.bind', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['"::1"', '::1'],
    ['"127.0.0.1"', '127.0.0.1'],
  ])('%s listens on %s without auth', async (bind, host) => {
    const r = await load(`{ bind: ${bind.startsWith('"') ? bind : `"${bind}"`} }`);
    expect(r.errors).toEqual([]);
    expect(r.gateway?.bind).toBe(host);
  });

  it('resolves the modes: lan every interface, custom its host, auto by container, tailnet loopback', () => {
    expect(resolveBindHost('lan', undefined, false)).toEqual({ host: '0.0.0.0' });
    expect(resolveBindHost('custom', '10.1.2.3', false)).toEqual({ host: '10.1.2.3' });
    expect(resolveBindHost('auto', undefined, true)).toEqual({ host: '0.0.0.0' });
    expect(resolveBindHost('auto', undefined, false)).toEqual({ host: '127.0.0.1' });
    expect(resolveBindHost('tailnet', undefined, false)).toMatchObject({ host: '127.0.0.1', fallback: expect.stringContaining('Tailscale') });
    expect(resolveBindHost('10.0.0.5', undefined, false)).toEqual({ host: '10.0.0.5' });
  });

  it('refuses a bind beyond loopback when nothing authenticates callers, naming what to set', async () => {
    for (const bind of ['"lan"', '"0.0.0.0"', '"::"', '"custom", customBindHost: "10.1.2.3"']) {
      const r = await load(`{ bind: ${bind} }`);
      expect(r.errors).toEqual([expect.stringMatching(/^gateway\.bind: ".*" listens on .*, beyond loopback, and nothing authenticates callers: set gateway\.auth/)]);
    }
    const none = await load('{ bind: "lan", auth: { mode: "none" } }');
    expect(none.errors).toEqual([expect.stringContaining('(gateway.auth.mode is "none")')]);
  });

  it('serves beyond loopback with any auth: a token, a password, the SSO proxy, clawgate admin tokens', async () => {
    for (const gateway of [
      '{ bind: "lan", auth: { mode: "token", token: "t-0123456789abcdef" } }',
      '{ bind: "lan", auth: { mode: "password", password: "p-0123456789abcdef" } }',
      '{ bind: "lan", trustedProxies: ["10.0.0.7"], auth: { mode: "trusted-proxy", trustedProxy: { userHeader: "x-forwarded-user" } } }',
      '{ bind: "0.0.0.0", admin: { tokens: [{ name: "ops", token: "t-0123456789abcdef", role: "admin" }] } }',
    ]) {
      const r = await load(gateway);
      expect(r.errors).toEqual([]);
      expect(r.gateway?.bind).toBe('0.0.0.0');
    }
  });

  it('says a typo of a mode is one, and wants customBindHost with custom', async () => {
    expect((await load('{ bind: "lna" }')).errors).toEqual([
      'gateway.bind: must be loopback, lan, auto, custom, tailnet or an IP address (did you mean "lan"?) (got "lna")',
    ]);
    expect((await load('{ bind: "custom" }')).errors).toEqual(['gateway.customBindHost: is required with bind "custom" (the IP address to listen on)']);
    expect((await load('{ bind: "custom", customBindHost: "my-host" }')).errors).toEqual([expect.stringMatching(/^gateway\.customBindHost: must be an ip address/)]);
  });

  it('warns that tailnet listens on loopback', async () => {
    const r = await load('{ bind: "tailnet" }');
    expect(r.gateway?.bind).toBe('127.0.0.1');
    expect(r.warnings).toContainEqual(expect.stringMatching(/^gateway\.bind: "tailnet": .*listens on loopback/));
  });
});

describe('gateway.mode', () => {
  it('takes "local", refuses "remote" and warns about anything else', async () => {
    expect((await load('{ mode: "local" }')).errors).toEqual([]);
    expect((await load('{ mode: "remote" }')).errors).toEqual([expect.stringMatching(/^gateway\.mode: "remote" makes this file a client of another gateway/)]);
    const other = await load('{ mode: "production" }');
    expect(other.errors).toEqual([]);
    expect(other.warnings).toContain('gateway.mode: "production" is not an OpenClaw gateway mode (local, remote); clawgate runs as "local"');
  });
});

describe('gateway.auth', () => {
  it('token: one more admin token, role admin, from the file or OPENCLAW_GATEWAY_TOKEN', async () => {
    const written = await load('{ auth: { mode: "token", token: "t-0123456789abcdef" } }');
    expect(written.gateway?.auth).toEqual({ mode: 'token' });
    expect(written.gateway?.admin.tokens).toEqual([{ name: 'gateway.auth.token', token: 't-0123456789abcdef', role: 'admin' }]);
    const fromEnv = await load('{ auth: { mode: "token" } }', { OPENCLAW_GATEWAY_TOKEN: 'env-0123456789abcdef' });
    expect(fromEnv.gateway?.admin.tokens).toEqual([{ name: 'gateway.auth.token', token: 'env-0123456789abcdef', role: 'admin' }]);
  });

  it('a token written as an unset ${VAR} does not fall back to OPENCLAW_GATEWAY_TOKEN: the entry matches nobody', async () => {
    const r = await load('{ auth: { mode: "token", token: "${MY_TOKEN}" } }', { OPENCLAW_GATEWAY_TOKEN: 'env-0123456789abcdef' });
    expect(r.errors).toEqual([]);
    expect(r.gateway?.admin.tokens).toEqual([{ name: 'gateway.auth.token', token: undefined, role: 'admin' }]);
    expect(r.warnings).toContain('gateway.auth.token: environment variable MY_TOKEN is not set; this entry is unusable until it is');
  });

  it('token with no token anywhere still turns auth on (nobody gets in) and says so', async () => {
    const r = await load('{ auth: { mode: "token" } }');
    expect(r.gateway?.admin.tokens).toEqual([{ name: 'gateway.auth.token', token: undefined, role: 'admin' }]);
    expect(r.warnings).toContainEqual(expect.stringMatching(/^gateway\.auth\.token: is not set \(nor OPENCLAW_GATEWAY_TOKEN\)/));
  });

  it('password: a bearer admin token too; the mode is inferred from what is set', async () => {
    const r = await load('{ auth: { password: "p-0123456789abcdef" } }');
    expect(r.gateway?.auth).toEqual({ mode: 'password' });
    expect(r.gateway?.admin.tokens).toEqual([{ name: 'gateway.auth.password', token: 'p-0123456789abcdef', role: 'admin' }]);
    expect((await load('{}', { OPENCLAW_GATEWAY_TOKEN: 'env-0123456789abcdef' })).gateway?.auth).toEqual({ mode: 'token' });
    expect((await load('{}')).gateway?.auth).toEqual({ mode: 'none' });
    expect((await load('{ auth: { token: "t-0123456789abcdef", password: "p-0123456789abcdef" } }')).errors).toEqual([
      expect.stringMatching(/^gateway\.auth\.mode: is required when both a token and a password are configured/),
    ]);
  });

  it('trusted-proxy: the SSO-proxy mode with gateway.trustedProxies, every user admin, loopback proxies only when allowed', async () => {
    const r = await load(
      '{ trustedProxies: ["10.0.0.7", "127.0.0.1"], auth: { mode: "trusted-proxy", password: "p-0123456789abcdef", trustedProxy: { userHeader: "x-auth-user" } } }',
    );
    expect(r.errors).toEqual([]);
    expect(r.gateway?.admin.sso).toMatchObject({ enabled: true, trustedProxies: ['10.0.0.7'], userHeader: 'x-auth-user', defaultRole: 'admin' });
    expect(r.gateway?.admin.tokens).toEqual([{ name: 'gateway.auth.password', token: 'p-0123456789abcdef', role: 'admin' }]);
    expect(r.warnings).toContainEqual(expect.stringMatching(/^gateway\.trustedProxies: loopback entries are not believed .*"127\.0\.0\.1"/));
    const allowed = await load('{ trustedProxies: ["127.0.0.1"], auth: { mode: "trusted-proxy", trustedProxy: { userHeader: "u", allowLoopback: true } } }');
    expect(allowed.gateway?.admin.sso.trustedProxies).toEqual(['127.0.0.1']);
  });

  it('trusted-proxy refuses what would let callers around the proxy, and a half-made setup', async () => {
    expect((await load('{ trustedProxies: ["10.0.0.7"], auth: { mode: "trusted-proxy", token: "t-0123456789abcdef", trustedProxy: { userHeader: "u" } } }')).errors).toEqual([
      expect.stringMatching(/^gateway\.auth\.token: cannot be combined with mode "trusted-proxy"/),
    ]);
    expect((await load('{ auth: { mode: "trusted-proxy" } }')).errors).toEqual([
      'gateway.auth.trustedProxy.userHeader: is required with mode "trusted-proxy" (the header the proxy sets to the user)',
      'gateway.trustedProxies: must list the identity-aware proxy (its address or CIDR block) with gateway.auth.mode "trusted-proxy"',
    ]);
    expect(
      (await load('{ trustedProxies: ["10.0.0.7"], admin: { sso: { enabled: true } }, auth: { mode: "trusted-proxy", trustedProxy: { userHeader: "u" } } }')).errors,
    ).toEqual(['gateway.auth.mode: "trusted-proxy" and gateway.admin.sso both configure the SSO proxy: keep one']);
  });

  it('refuses bad input with the key named: an unknown mode, a typo, and the settings it will not ignore', async () => {
    expect((await load('{ auth: { mode: "tokn" } }')).errors).toEqual([expect.stringMatching(/^gateway\.auth\.mode: must be one of: none, token, password, trusted-proxy \(got "tokn"\)/)]);
    expect((await load('{ auth: { mode: "token", tokn: "x" } }')).errors).toEqual(['gateway.auth.tokn: unknown key (did you mean "token"?)']);
    expect((await load('{ auth: { mode: "trusted-proxy", trustedProxy: { userHeader: "u", allowUsers: ["a"] } } }')).errors).toContainEqual(
      expect.stringMatching(/^gateway\.auth\.trustedProxy\.allowUsers: recognised OpenClaw setting, not supported by clawgate and not ignored/),
    );
  });

  it('a shared secret equal to an admin token is refused, without showing either', async () => {
    const r = await load('{ auth: { token: "same-0123456789abcdef" }, admin: { tokens: [{ name: "ops", token: "same-0123456789abcdef", role: "viewer" }] } }');
    expect(r.errors).toEqual(['gateway.auth.token: is the same as gateway.admin.tokens[0].token; every admin credential needs its own value']);
    expect(JSON.stringify(r)).not.toContain('same-0123456789abcdef');
  });

  it('recognises OpenClaw settings it does not use as warnings: allowTailscale, rateLimit', async () => {
    const r = await load('{ auth: { mode: "token", token: "t-0123456789abcdef", allowTailscale: true, rateLimit: { maxAttempts: 10 } } }');
    expect(r.errors).toEqual([]);
    expect(r.warnings).toContain('gateway: recognised OpenClaw settings, not supported by clawgate (2): gateway.auth.allowTailscale, gateway.auth.rateLimit');
  });
});
