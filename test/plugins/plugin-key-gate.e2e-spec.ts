import request from 'supertest';
import { AppError, ErrorCode, type CodePlugin, type PluginRouteError } from '../../src/plugin-sdk';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * The bearer-key gate of the plugin contract (docs/plugins.md#bearer-keys), used by a plugin that is not bundled: the
 * gateway's own key model over the plugin's keys — no valid key is a 401 with the route's challenge before the body is
 * read, counted as a refused credential; a key over its rate is a 429, counted; the admitted key reaches the route,
 * which refuses an agent outside the key's patterns. A route with `errorResponse` answers all of it in its own shape.
 */

const ADA = 'gate-key-ada-5d0c7e21';
const BOB = 'gate-key-bob-93a6f10b';
const CAROL = 'gate-key-carol-41b8d2c6';
const KEYS = {
  keys: [
    { name: 'ada', token: ADA, agents: ['main'] },
    { name: 'bob', token: BOB, agents: ['ops-*'] },
    { name: 'carol', token: CAROL, agents: ['*'] },
    { name: 'unset', agents: ['*'], usable: false },
  ],
  rateLimitPerMinute: 3,
};
let bodiesSeen = 0;

const gated: CodePlugin = {
  id: 'gated',
  register(api) {
    const gate = api.createKeyGate({ settings: () => KEYS });
    api.registerHttpRoute({
      method: 'POST',
      path: '/ask/:agent',
      auth: 'public',
      challenge: 'Bearer realm="gated"',
      keyGate: gate,
      handle: (req) => {
        bodiesSeen++;
        const key = req.key!;
        if (!key.mayUse(req.params.agent)) throw new AppError(ErrorCode.Forbidden, `key ${key.name} may not use agent ${req.params.agent}`);
        return { body: { key: key.name, agent: req.params.agent, agents: key.agents(), got: req.body } };
      },
    });
    // The same gate (and so the same windows) behind a route that answers in its own error shape.
    api.registerHttpRoute({
      method: 'POST',
      path: '/own',
      auth: 'public',
      challenge: 'Bearer realm="gated"',
      keyGate: gate,
      parseBody: false,
      errorResponse: (error: PluginRouteError) => ({
        headers: { 'x-gated': 'yes' },
        body: { fault: { status: error.status, code: error.code, gate: error.keyGate ?? null } },
      }),
      handle: (req) => ({ body: { raw: req.rawBody.toString('utf8'), parsed: req.body ?? null } }),
    });
  },
};

const forger: CodePlugin = {
  id: 'forger',
  register(api) {
    api.registerHttpRoute({ method: 'GET', path: '/x', auth: 'public', keyGate: { kind: 'key-gate' }, handle: () => ({}) });
  },
};

const prefixer: CodePlugin = {
  id: 'prefixer',
  register(api) {
    api.registerHttpRoute({ method: '*', path: '/all/*', auth: 'public', handle: () => ({}) });
  },
};

describe('plugin key gate: a plugin from outside the gateway uses its bearer keys (e2e)', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway(`{ agents: { list: [{ id: "main", default: true }, { id: "ops-east" }, { id: "ops-west" }] } }`, {
      plugins: [gated, forger, prefixer],
    });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  /** The sum of the series a pattern matches (an anonymous scrape shows peers as `other`). */
  const metric = async (pattern: RegExp): Promise<number> => {
    const metrics = await request(gw.url).get('/metrics').expect(200);
    return [...metrics.text.matchAll(pattern)].reduce((sum, m) => sum + Number(m[1]), 0);
  };
  const refusals = () => metric(/^clawgate_auth_refusals_total\{edge="plugin",reason="(?:invalid|missing)"\} (\d+)$/gm);
  const limited = () => metric(/^clawgate_rate_limited_total\{channel="plugin",peer="[^"]*"\} (\d+)$/gm);

  it('answers 401 with the challenge without a key, with a wrong one, another scheme or an empty one, before reading the body, and counts each', async () => {
    const before = await refusals();
    for (const auth of [undefined, 'Bearer wrong-key', 'Basic abc', 'Bearer ']) {
      const req = request(gw.url).post('/plugins/gated/ask/main').set('Content-Type', 'application/json');
      const res = await (auth ? req.set('Authorization', auth) : req).send('{"not": json');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="gated"');
      expect(res.body).toMatchObject({ status: 401, detail: 'a valid bearer key is required' });
    }
    expect(bodiesSeen).toBe(0);
    expect(await refusals()).toBe(before + 4);
  });

  it('admits a key to the agents its patterns allow and the route refuses the others', async () => {
    const ok = await request(gw.url).post('/plugins/gated/ask/main').set('Authorization', `Bearer ${ADA}`).send({ q: 1 }).expect(200);
    expect(ok.body).toEqual({ key: 'ada', agent: 'main', agents: ['main'], got: { q: 1 } });
    const refused = await request(gw.url).post('/plugins/gated/ask/ops-east').set('Authorization', `Bearer ${ADA}`).send({}).expect(403);
    expect(refused.body.detail).toBe('key ada may not use agent ops-east');
    const bob = await request(gw.url).post('/plugins/gated/ask/ops-west').set('Authorization', `Bearer ${BOB}`).send({}).expect(200);
    expect(bob.body).toMatchObject({ key: 'bob', agents: ['ops-east', 'ops-west'] });
  });

  it('answers 429 once a key is over its rate (the windows are per key, shared by the routes of one gate), and counts it', async () => {
    const before = await limited();
    // bob has used one of three; two more pass, across both routes.
    await request(gw.url).post('/plugins/gated/ask/ops-east').set('Authorization', `Bearer ${BOB}`).send({}).expect(200);
    await request(gw.url).post('/plugins/gated/own').set('Authorization', `Bearer ${BOB}`).send('x').expect(200);
    const over = await request(gw.url).post('/plugins/gated/ask/ops-east').set('Authorization', `Bearer ${BOB}`).send({});
    expect(over.status).toBe(429);
    expect(over.body.detail).toBe('key "bob" is over its rate limit of 3 requests per minute');
    expect(await limited()).toBe(before + 1);
    // Another key has a window of its own.
    await request(gw.url).post('/plugins/gated/ask/main').set('Authorization', `Bearer ${ADA}`).send({}).expect(200);
  });

  it('a route with errorResponse answers the gate and the body in its own shape, and reads its own body', async () => {
    const own = await request(gw.url).post('/plugins/gated/own').set('Content-Type', 'application/json').send('{"a":');
    expect(own.status).toBe(401);
    expect(own.headers['www-authenticate']).toBe('Bearer realm="gated"');
    expect(own.headers['x-gated']).toBe('yes');
    expect(own.body).toEqual({ fault: { status: 401, code: 'UNAUTHENTICATED', gate: { refusal: 'unauthenticated' } } });
    const limitedOwn = await request(gw.url).post('/plugins/gated/own').set('Authorization', `Bearer ${BOB}`).send('x');
    expect(limitedOwn.status).toBe(429);
    expect(limitedOwn.body).toEqual({
      fault: { status: 429, code: 'RATE_LIMITED', gate: { refusal: 'rate-limited', key: 'bob', limitPerMinute: 3 } },
    });
    const raw = await request(gw.url)
      .post('/plugins/gated/own')
      .set('Authorization', `Bearer ${CAROL}`)
      .set('Content-Type', 'application/json')
      .send('{"a":');
    expect(raw.status).toBe(200);
    expect(raw.body).toEqual({ raw: '{"a":', parsed: null });
    const tooLarge = await request(gw.url)
      .post('/plugins/gated/own')
      .set('Authorization', `Bearer ${CAROL}`)
      .send('x'.repeat(1024 * 1024 + 1));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ fault: { status: 413, code: 'PAYLOAD_TOO_LARGE', gate: null } });
  });

  it('a keyGate not made by createKeyGate fails register, and so does a prefix path below /plugins/<id>', async () => {
    const forger = (await request(gw.url).get('/admin/plugins/forger').expect(200)).body;
    expect(forger.status).toBe('failed');
    expect(forger.errors[0]).toContain('keyGate must be a gate made by api.createKeyGate');
    const prefixer = (await request(gw.url).get('/admin/plugins/prefixer').expect(200)).body;
    expect(prefixer.status).toBe('failed');
    expect(prefixer.errors[0]).toContain('only an absolute path may end in "/*"');
  });
});
