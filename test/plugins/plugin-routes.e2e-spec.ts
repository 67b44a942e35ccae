import request from 'supertest';
import { AppError, ErrorCode, type CodePlugin, type PluginHttpRequest } from '../../src/plugin-sdk';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * What a plugin's HTTP route can do beyond a JSON answer (docs/plugins.md#routes): check a credential before its body
 * is read, refuse with its own challenge (counted like the gateway's refusals), stream Server-Sent Events; and what
 * the gateway checks of every body. Absolute paths are a bundled plugin's privilege: a plugin given in code is refused.
 */

const KEY = 'plugin-route-key-7c1e9a';
let bodiesSeen = 0;

function checkKey(req: Omit<PluginHttpRequest, 'body'>): void {
  if (req.headers.authorization !== `Bearer ${KEY}`) throw new AppError(ErrorCode.Unauthenticated, 'a valid key is required');
}

const feed: CodePlugin = {
  id: 'feed',
  register(api) {
    api.registerHttpRoute({
      method: 'POST',
      path: '/echo',
      auth: 'public',
      challenge: 'Bearer realm="feed"',
      precheck: checkKey,
      handle: (req) => {
        bodiesSeen++;
        return { body: { got: req.body } };
      },
    });
    api.registerHttpRoute({
      method: 'GET',
      path: '/ticks',
      auth: 'public',
      handle: () => ({
        events: (async function* () {
          for (let i = 1; i <= 3; i++) yield { event: 'tick', data: { i } };
          yield { event: 'done', data: { count: 3 } };
        })(),
      }),
    });
    api.registerHttpRoute({
      method: 'GET',
      path: '/broken-stream',
      auth: 'public',
      handle: () => ({
        events: (async function* () {
          yield { event: 'tick', data: { i: 1 } };
          throw new Error('secret detail of the failure');
        })(),
      }),
    });
  },
};

const squatter: CodePlugin = {
  id: 'squatter',
  register(api) {
    api.registerHttpRoute({ method: 'POST', path: '/channels/http/messages', absolute: true, auth: 'public', handle: () => ({}) });
  },
};

describe('plugin routes: prechecks, challenges, streams, body limits (e2e)', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway('{}', { plugins: [feed, squatter] });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  const refusals = async (): Promise<number> => {
    const metrics = await request(gw.url).get('/metrics').expect(200);
    return Number(/^clawgate_auth_refusals_total\{edge="plugin",reason="invalid"\} (\d+)$/m.exec(metrics.text)?.[1]);
  };

  it('a precheck that refuses answers 401 with the route challenge, before any body is read, and is counted', async () => {
    const before = await refusals();
    const res = await request(gw.url)
      .post('/plugins/feed/echo')
      .set('Authorization', 'Bearer wrong')
      .set('Content-Type', 'application/json')
      .send('{"not": valid json');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="feed"');
    expect(res.body).toMatchObject({ status: 401, detail: 'a valid key is required' });
    expect(bodiesSeen).toBe(0);
    expect(await refusals()).toBe(before + 1);
    const ok = await request(gw.url).post('/plugins/feed/echo').set('Authorization', `Bearer ${KEY}`).send({ a: 1 }).expect(200);
    expect(ok.body).toEqual({ got: { a: 1 } });
  });

  it('a JSON body nested too deep or with a reserved key is refused before the route sees it', async () => {
    const seen = bodiesSeen;
    const deep = await request(gw.url)
      .post('/plugins/feed/echo')
      .set('Authorization', `Bearer ${KEY}`)
      .set('Content-Type', 'application/json')
      .send(`{"a":${'['.repeat(100)}${']'.repeat(100)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.detail).toBe('request body is nested more than 64 levels deep');
    const reserved = await request(gw.url)
      .post('/plugins/feed/echo')
      .set('Authorization', `Bearer ${KEY}`)
      .set('Content-Type', 'application/json')
      .send('{"x":{"__proto__":{"polluted":true}}}');
    expect(reserved.status).toBe(400);
    expect(reserved.body.detail).toContain('x.__proto__');
    expect(bodiesSeen).toBe(seen);
  });

  it('a route answers Server-Sent Events, one per value, and ends when they do', async () => {
    const res = await fetch(`${gw.url}/plugins/feed/ticks`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('cache-control')).toContain('no-cache');
    expect(await res.text()).toBe(
      'event: tick\ndata: {"i":1}\n\nevent: tick\ndata: {"i":2}\n\nevent: tick\ndata: {"i":3}\n\nevent: done\ndata: {"count":3}\n\n',
    );
  });

  it('a stream that throws ends with an error event that says nothing of the failure', async () => {
    const res = await fetch(`${gw.url}/plugins/feed/broken-stream`);
    const text = await res.text();
    expect(text).toBe('event: tick\ndata: {"i":1}\n\nevent: error\ndata: {"message":"the stream failed"}\n\n');
    expect(text).not.toContain('secret detail');
  });

  it('an absolute path is refused to a plugin that is not bundled', async () => {
    const record = (await request(gw.url).get('/admin/plugins/squatter').expect(200)).body;
    expect(record.status).toBe('failed');
    expect(record.errors[0]).toContain('only a bundled plugin may serve an absolute path');
  });
});
