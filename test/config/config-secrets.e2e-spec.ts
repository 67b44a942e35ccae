import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import type { TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * What a viewer (GET /admin/config/status, GET /admin/config) and the log can see of a config the gateway
 * refused: never a secret, never a value that came from `${VAR}`, never credentials written into a URL —
 * and the SSO assertion header the config names is blanked in every log line. A real gateway in this
 * process at debug level, its log lines captured from stdout. See docs/admin-security.md#10-secrets-in-responses-and-logs.
 */

const ADMIN = 'cfg-secrets-admin-token-5b1e';
const VIEWER = 'cfg-secrets-viewer-token-9d3a';
const HEADER_SECRET = 'sk-live-header-secret-4f2a9c';
const ENV_VALUE = 'not a url env-value-7e1b3d';
/** The value of ${SOME_VAR}: read as the provider part of a model reference, it names no provider. */
const PROVIDER_VALUE = 'Env-Provider-3f9c1a';
const URL_PASSWORD = 'url-password-2c8e6f';
const ASSERTION = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.assertion-signature-6a0d';

const config = (extra: string, { jwtHeader = 'X-Amzn-Oidc-Data', gateway = '', agent = '' } = {}) => `{
  gateway: {
    reload: { mode: "off" }, ${gateway}
    admin: {
      tokens: [{ name: "root", token: "${ADMIN}", role: "admin" }, { name: "wall", token: "${VIEWER}", role: "viewer" }],
      sso: { enabled: true, trustedProxies: ["127.0.0.1/32", "::1"], jwt: { header: "${jwtHeader}", jwksUrl: "http://127.0.0.1:9/jwks" } },
    },
  },
  agents: { list: [{ id: "main", ${agent} }] },
  ${extra}
}`;

describe('config secrets shown to viewers and the log (e2e, debug logs)', () => {
  let gw: TestGateway;
  let stdout: jest.SpyInstance;
  const lines: string[] = [];
  const previousLevel = process.env.CLAWGATE_LOG_LEVEL;

  const logs = () => lines.join('');
  /** Writes the file and asks for a reload (the SSO assertion header rides along); the change is refused. */
  async function rejectedReload(extra: string, gateway = '', agent = ''): Promise<request.Response> {
    await gw.writeConfig(config(extra, { gateway, agent }));
    const res = await request(gw.url)
      .post('/admin/config/reload')
      .set(API_CLIENT)
      .set('Authorization', `Bearer ${ADMIN}`)
      .set('X-Amzn-Oidc-Data', ASSERTION);
    expect(res.status).toBe(422);
    return res;
  }
  async function status(): Promise<request.Response> {
    return request(gw.url).get('/admin/config/status').set('Authorization', `Bearer ${VIEWER}`).expect(200);
  }

  beforeAll(async () => {
    // The logger reads its level when its module loads, so the gateway is imported only now.
    process.env.CLAWGATE_LOG_LEVEL = 'debug';
    stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const { startTestGateway } = await import('../support/gateway-harness');
    gw = await startTestGateway(config(''), { env: { PUBLIC_URL: ENV_VALUE, SOME_VAR: PROVIDER_VALUE } });
  });

  afterAll(async () => {
    await gw?.stop();
    stdout?.mockRestore();
    process.env.CLAWGATE_LOG_LEVEL = previousLevel;
  });

  it('a provider header map written as a string is refused without quoting it', async () => {
    const res = await rejectedReload(
      `models: { providers: { x: { api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", headers: "Bearer ${HEADER_SECRET}" } } },`,
    );
    const s = await status();
    expect(s.body.lastError.errors).toEqual([{ path: 'models.providers.x.headers', message: 'must be an object' }]);
    for (const text of [res.text, s.text, logs()]) expect(text).not.toContain(HEADER_SECRET.slice(0, 12));
  });

  it('a ${VAR} value that fails validation is named by its variable, not quoted', async () => {
    const res = await rejectedReload('', 'publicUrl: "${PUBLIC_URL}",');
    const s = await status();
    expect(s.body.lastError.errors).toEqual([
      { path: 'gateway.publicUrl', message: 'must be a URL address (got the value of ${PUBLIC_URL})' },
    ]);
    for (const text of [res.text, s.text, logs()]) expect(text).not.toContain('env-value');
  });

  it('a model whose provider part comes from ${VAR} and names no provider: the variable is named, no part of its value shown', async () => {
    const before = lines.length;
    const res = await rejectedReload('', '', 'model: "${SOME_VAR}/m"');
    const s = await status();
    expect(s.body.lastError.errors).toEqual([
      {
        path: 'agents.list[0].model',
        message:
          'unknown model provider a value built from ${SOME_VAR}; built in: echo, anthropic, openai, ollama, or define it in models.providers',
      },
    ]);
    const rejectedLine = lines.slice(before).find((l) => l.includes('config change rejected'));
    expect(rejectedLine).toContain('agents.list[0].model: unknown model provider a value built from ${SOME_VAR}');
    for (const text of [res.text, s.text, logs()]) expect(text.toLowerCase()).not.toContain('env-provider');
  });

  it('a URL with credentials is refused with its path and where the credential goes, and shown nowhere', async () => {
    const lastGood = path.join(gw.stateDir, 'openclaw.last-good.json');
    const url = `http://svc:${URL_PASSWORD}@127.0.0.1:9/a2a/v1`;
    const res = await rejectedReload(
      `channels: { a2a: { enabled: true, peers: { hermes: { token: "peer-token-0123456789", url: "${url}" } } } },`,
    );
    expect(res.body.errors).toContainEqual(
      expect.objectContaining({
        path: 'channels.a2a.peers.hermes.url',
        message: 'must not contain credentials (user:password@); put the token we present in outboundToken',
      }),
    );
    const s = await status();
    const shown = await request(gw.url).get('/admin/config').set('Authorization', `Bearer ${VIEWER}`).expect(200);
    for (const text of [res.text, s.text, shown.text, await fs.readFile(lastGood, 'utf8'), logs()])
      expect(text).not.toContain(URL_PASSWORD);

    // The same rule for a posted config, at another URL field.
    const posted = await request(gw.url)
      .post('/admin/config/validate')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send({ models: { providers: { local: { api: 'openai-chat', baseUrl: url } } } })
      .expect(422);
    expect(posted.body.errors).toContainEqual(expect.objectContaining({ path: 'models.providers.local.baseUrl' }));
    expect(posted.text).not.toContain(URL_PASSWORD);
  });

  it('keeps the SSO assertion header the config names out of every log line, also after a rename', async () => {
    // A request's lines carry its id, not its headers (docs/operations.md#secrets).
    const before = lines.length;
    await rejectedReload('bogus: true,');
    const line = lines.slice(before).find((l) => l.includes('config change rejected'));
    expect(JSON.parse(line!)).toEqual(expect.objectContaining({ event: 'config.rejected', reqId: expect.any(String) }));
    expect(JSON.parse(line!).req).toBeUndefined();

    await gw.writeConfig(config('', { jwtHeader: 'X-Corp-Assertion' }));
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).set('Authorization', `Bearer ${ADMIN}`).expect(200);
    await gw.writeConfig(config('bogus: true,', { jwtHeader: 'X-Corp-Assertion' }));
    await request(gw.url)
      .post('/admin/config/reload')
      .set(API_CLIENT)
      .set('Authorization', `Bearer ${ADMIN}`)
      .set('X-Corp-Assertion', `${ASSERTION}-renamed`)
      .expect(422);
    expect(lines.slice(before).filter((l) => l.includes('config change rejected'))).toHaveLength(2);
    expect(logs()).not.toContain(ASSERTION);
  });
});
