import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { CliBuild, runCli, transpileCli } from '../fixtures/cli-runner';
import { API_CLIENT } from '../support/admin-client';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * OpenClaw's gateway.bind and gateway.auth on a real gateway (docs/admin-security.md#12-openclaw-gatewayauth):
 * a bind beyond loopback without auth does not start (exit 78, as every invalid config); with `auth.mode`
 * token or password it serves, and the shared secret guards the admin API as an admin bearer token.
 */

const TOKEN = 'openclaw-gateway-token-9f3a51c2';
const PASSWORD = 'openclaw-gateway-password-27be40d1';

describe('gateway.bind "lan" (0.0.0.0) as OpenClaw writes it', () => {
  let build: CliBuild;
  let tmp: string;
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-openclaw-bind-'));
    build = await transpileCli();
  }, 60_000);
  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
    await build?.remove();
  });

  it('refuses to start without auth: exit 78, naming gateway.bind and what to set', async () => {
    const config = path.join(tmp, 'lan-open.json5');
    await fs.writeFile(config, '{ gateway: { mode: "local", bind: "lan" }, agents: { list: [{ id: "main" }] } }');
    const run = await runCli(build.cliJs, ['gateway', '--config', config, '--state-dir', path.join(tmp, 'state-open'), '--port', '0'], {
      HOME: tmp,
      CLAWGATE_LOG_LEVEL: 'silent',
    });
    expect(run.code).toBe(78);
    expect(run.stderr).toContain(`clawgate: invalid config ${config}; not starting:`);
    expect(run.stderr).toContain(
      '  gateway.bind: "lan" listens on 0.0.0.0, beyond loopback, and nothing authenticates callers: set gateway.auth (mode "token", "password" or "trusted-proxy") or gateway.admin.tokens, or bind "loopback"',
    );
    expect(run.stdout).not.toContain('listening');
  }, 60_000);

  it('refuses it through `config validate` too, and accepts it with a token from OPENCLAW_GATEWAY_TOKEN', async () => {
    const config = path.join(tmp, 'lan-env-token.json5');
    await fs.writeFile(config, '{ gateway: { bind: "lan", auth: { mode: "token" } } }');
    const args = ['config', 'validate', config, '--state-dir', path.join(tmp, 'state-validate')];
    const withToken = await runCli(build.cliJs, args, { HOME: tmp, OPENCLAW_GATEWAY_TOKEN: TOKEN });
    expect(withToken.code).toBe(0);
    expect(withToken.stdout + withToken.stderr).not.toContain(TOKEN);
    const without = await runCli(build.cliJs, args, { HOME: tmp });
    // No token anywhere: auth is on and admits nobody, which is closed, not open; the bind is allowed.
    expect(without.code).toBe(0);
    expect(without.stdout + without.stderr).toContain('gateway.auth.token: is not set (nor OPENCLAW_GATEWAY_TOKEN)');
  }, 60_000);
});

describe.each([
  { mode: 'token', auth: `{ mode: "token", token: "${TOKEN}" }`, secret: TOKEN, name: 'gateway.auth.token' },
  {
    mode: 'password',
    auth: `{ mode: "password", password: "${PASSWORD}", allowTailscale: false }`,
    secret: PASSWORD,
    name: 'gateway.auth.password',
  },
])('gateway.auth.mode "$mode" with bind "lan"', ({ auth, secret, name }) => {
  let gw: TestGateway;
  let base: string;
  beforeAll(async () => {
    gw = await startTestGateway(`{
      gateway: { mode: "local", bind: "lan", auth: ${auth} },
      agents: { list: [{ id: "main" }] },
    }`);
    base = `http://127.0.0.1:${gw.port}`;
  });
  afterAll(() => gw?.stop());

  it('serves on every interface', async () => {
    expect(gw.app.getHttpServer().address()).toMatchObject({ address: '0.0.0.0' });
    await request(base).get('/healthz').expect(200);
  });

  it('guards the admin API: 401 without the secret (loopback included), 401 with a wrong one, 200 with it', async () => {
    const anonymous = await request(base).get('/admin/config/status').expect(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="clawgate admin"');
    await request(base).get('/admin/config/status').set('Authorization', `Bearer ${secret}x`).expect(401);
    const ok = await request(base).get('/admin/config/status').set('Authorization', `Bearer ${secret}`).expect(200);
    expect(ok.body.warnings).toEqual(expect.any(Array));
  });

  it('grants role admin under the name of the setting, and never shows the secret', async () => {
    const who = await request(base).get('/admin/whoami').set('Authorization', `Bearer ${secret}`).expect(200);
    expect(who.body).toMatchObject({ subject: `token:${name}`, role: 'admin' });
    await request(base).post('/admin/config/reload').set(API_CLIENT).set('Authorization', `Bearer ${secret}`).expect(200);
    const config = await request(base).get('/admin/config').set('Authorization', `Bearer ${secret}`).expect(200);
    expect(JSON.stringify(config.body)).not.toContain(secret);
    const status = await request(base).get('/admin/config/status').set('Authorization', `Bearer ${secret}`).expect(200);
    expect(JSON.stringify(status.body)).not.toContain(secret);
  });
});
