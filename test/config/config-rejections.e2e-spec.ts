import request from 'supertest';
import { MAX_NESTING_DEPTH } from '../../src/modules/config/pipeline/nesting-limit';
import { RESERVED_KEY_MESSAGE } from '../../src/modules/config/pipeline/reserved-keys';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * Configs the schema classes cannot hold (a key named like a built-in object property, nesting deep enough
 * to exhaust the stack) go through the same rejection as any other invalid config: the running revision
 * stays, `lastError` names the path, the rejected-reload counter moves, the validate endpoint answers 422.
 * See docs/configuration.md#5-strict-validation-and-error-messages.
 */

const BASE = `{
  gateway: { reload: { mode: "off" } },
  agents: { list: [{ id: "main" }] },
  bindings: [{ agentId: "main", match: { channel: "http" } }],
}`;
const TOO_DEEP = `nested too deeply: objects and arrays may nest at most ${MAX_NESTING_DEPTH} levels`;
const DEEP_PATH = `agents${'.a'.repeat(MAX_NESTING_DEPTH - 1)}`;

const CASES: Array<{ name: string; text: string; path: string; message: string }> = [
  {
    name: 'a role mapping named constructor',
    text: BASE.replace('mode: "off" }', 'mode: "off" }, admin: { sso: { roleMapping: { constructor: "admin" } } }'),
    path: 'gateway.admin.sso.roleMapping.constructor',
    message: RESERVED_KEY_MESSAGE,
  },
  {
    name: 'a provider header named constructor',
    text: BASE.replace('agents:', 'models: { providers: { local: { api: "echo", headers: { constructor: "x" } } } }, agents:'),
    path: 'models.providers.local.headers.constructor',
    message: RESERVED_KEY_MESSAGE,
  },
  {
    name: '20,000 levels of nesting',
    text: `{ gateway: { reload: { mode: "off" } }, agents: ${'{ a: '.repeat(20_000)}1${' }'.repeat(20_000)} }`,
    path: DEEP_PATH,
    message: TOO_DEEP,
  },
  {
    name: 'a __proto__ key in a binding',
    text: BASE.replace('channel: "http" }', 'channel: "http", __proto__: { accountId: "*" } }'),
    path: 'bindings[0].match.__proto__',
    message: RESERVED_KEY_MESSAGE,
  },
  {
    name: 'a peer named constructor',
    text: BASE.replace('agents:', 'channels: { a2a: { peers: { constructor: { token: "t1" } } } }, agents:'),
    path: 'channels.a2a.peers.constructor',
    message: RESERVED_KEY_MESSAGE,
  },
];

async function status(gw: TestGateway) {
  return (await request(gw.url).get('/admin/config/status').expect(200)).body as {
    revision: string;
    lastError: { at: string; errors: Array<{ path: string; message: string }> } | null;
  };
}

async function rejectedReloads(gw: TestGateway): Promise<number> {
  const text = (await request(gw.url).get('/metrics').expect(200)).text;
  const m = /^clawgate_config_reload_total\{result="rejected"\} (\d+)/m.exec(text);
  return m ? Number(m[1]) : 0;
}

describe('configs the loader must reject, not crash on (e2e)', () => {
  let gw: TestGateway;
  let revision: string;
  beforeAll(async () => {
    gw = await startTestGateway(BASE);
    revision = (await status(gw)).revision;
  });
  afterAll(() => gw.stop());

  describe.each(CASES)('$name', ({ text, path, message }) => {
    it('is rejected by a reload: 422 naming the path, lastError set, counted, still serving the old revision', async () => {
      const before = await rejectedReloads(gw);
      await gw.writeConfig(text);
      const res = await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ path, message, severity: 'error' })]);
      const s = await status(gw);
      expect(s.revision).toBe(revision);
      expect(s.lastError?.errors).toEqual([expect.objectContaining({ path, message })]);
      expect(await rejectedReloads(gw)).toBe(before + 1);
      await gw.writeConfig(BASE);
      await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200);
      expect((await status(gw)).lastError).toBeNull();
    });

    it('is answered 422 by POST /admin/config/validate, naming the path', async () => {
      const res = await request(gw.url).post('/admin/config/validate').set('Content-Type', 'application/json5').send(text).expect(422);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body.errors).toEqual([expect.objectContaining({ path, message })]);
    });
  });

  it('answers the same for JSON bodies, also one nested too deeply to serialize', async () => {
    const roleMapping = await request(gw.url)
      .post('/admin/config/validate')
      .set('Content-Type', 'application/json')
      .send('{ "gateway": { "admin": { "sso": { "roleMapping": { "constructor": "admin" } } } } }')
      .expect(422);
    expect(roleMapping.body.errors).toEqual([expect.objectContaining({ path: 'gateway.admin.sso.roleMapping.constructor' })]);
    const proto = await request(gw.url)
      .post('/admin/config/validate')
      .set('Content-Type', 'application/json')
      .send('{ "tools": { "__proto__": { "sessions": {} } } }')
      .expect(422);
    expect(proto.body.errors).toEqual([expect.objectContaining({ path: 'tools.__proto__', message: RESERVED_KEY_MESSAGE })]);
    // Sent as text: the client would have to serialize the object, which is what overflows the stack.
    const deep = await request(gw.url)
      .post('/admin/config/validate')
      .set('Content-Type', 'application/json')
      .send(`{ "agents": ${'{ "a": '.repeat(20_000)}1${' }'.repeat(20_000)} }`)
      .expect(422);
    expect(deep.body.errors).toEqual([expect.objectContaining({ path: DEEP_PATH, message: TOO_DEEP })]);
    await request(gw.url).get('/healthz').expect(200);
  });
});

describe('a watched file the loader must reject (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway('{ gateway: { reload: { debounceMs: 50 } }, agents: { list: [{ id: "main" }] } }');
  });
  afterAll(() => gw.stop());

  it('records a key named constructor as the last error and counts the rejection', async () => {
    const before = await rejectedReloads(gw);
    const { revision } = await status(gw);
    await gw.writeConfig('{ gateway: { reload: { debounceMs: 50 }, admin: { sso: { roleMapping: { constructor: "admin" } } } } }');
    const s = await waitFor('the rejection', async () => {
      const now = await status(gw);
      return now.lastError ? now : undefined;
    });
    expect(s.lastError?.errors.map((e) => e.path)).toEqual(['gateway.admin.sso.roleMapping.constructor']);
    expect(s.revision).toBe(revision);
    expect(await rejectedReloads(gw)).toBe(before + 1);
  });
});
