import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ChannelRegistry } from '../../src/modules/channels/channel-registry';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../../src/bundled-plugins/http/webhook-signature';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * The http channel end to end: a real gateway with the echo model, real HTTP in, and a local
 * webhook receiver that records what the gateway POSTs to it.
 * See docs/channels.md#the-http-channel.
 */

// Same length on purpose: a wrong token must fail for its value, not its length.
const DESK = 'desk-token-0123456789abcdef';
const WRONG = 'desk-token-0123456789abcdeX';
const DESK_NEXT = 'desk-token-rotated-9876543210';
const NOISY = 'noisy-token-secret-42';
const BOUNCY = 'bouncy-token-secret-43';
const BROKEN = 'broken-token-secret-44';
const TOKENS = [DESK, DESK_NEXT, NOISY, BOUNCY, BROKEN];

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface ConfigOptions {
  enabled?: boolean;
  dmScope?: string;
  deskVar?: string;
}

describe('http channel (e2e, echo model)', () => {
  let gw: TestGateway;
  let hook: http.Server;
  let hookUrl: string;
  const received: Recorded[] = [];
  /** Every response body the gateway sent in this suite, checked for token values at the end. */
  const bodies: string[] = [];

  const config = ({ enabled = true, dmScope = 'main', deskVar = 'DESK_TOKEN' }: ConfigOptions = {}) => `{
    agents: { list: [{ id: "main", default: true }, { id: "support" }, { id: "claude", model: "anthropic/claude-x" }] },
    bindings: [
      { agentId: "support", match: { channel: "http", accountId: "desk" } },
      { agentId: "claude", match: { channel: "http", accountId: "broken" } },
    ],
    session: { dmScope: "${dmScope}" },
    channels: { http: { enabled: ${enabled}, accounts: {
      desk: { token: "\${${deskVar}}" },
      noisy: { token: "${NOISY}", webhookUrl: "${hookUrl}/hook" },
      bouncy: { token: "${BOUNCY}", webhookUrl: "${hookUrl}/bounce" },
      broken: { token: "${BROKEN}" },
      ghost: { token: "\${GHOST_TOKEN}" },
    } } },
  }`;

  const post = async (token: string | undefined, body: unknown) => {
    let req = request(gw.url).post('/channels/http/messages');
    if (token !== undefined) req = req.set('Authorization', `Bearer ${token}`);
    const res = await req.send(body as object);
    bodies.push(res.text);
    return res;
  };

  const revision = async (): Promise<string> => {
    const res = await request(gw.url).get('/admin/config/status').expect(200);
    bodies.push(res.text);
    return res.body.revision as string;
  };

  /** Rewrites openclaw.json and waits until the gateway serves a new revision of it. */
  const applyConfig = async (options: ConfigOptions) => {
    const before = await revision();
    await gw.writeConfig(config(options));
    await waitFor('the new config revision', async () => (await revision()) !== before, 10_000);
  };

  const send = (delivery: { sessionKey: string; to: string; text: string; accountId?: string; threadId?: string }) =>
    gw.app.get(ChannelRegistry).get('http')!.send(delivery);

  beforeAll(async () => {
    hook = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (req.url === '/bounce') res.writeHead(302, { Location: '/elsewhere' }).end('moved');
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
    gw = await startTestGateway(config(), { env: { DESK_TOKEN: DESK, DESK_TOKEN_NEXT: DESK_NEXT } });
  });

  afterAll(async () => {
    await gw?.stop();
    await new Promise((resolve) => hook?.close(resolve));
  });

  describe('authentication', () => {
    it.each([
      ['a wrong token of the same length', WRONG],
      ['no Authorization header', undefined],
      ['an empty bearer token', ''],
      ['the literal ${VAR} of an account whose variable is unset', '${GHOST_TOKEN}'],
    ])('answers %s with the same bare 401 problem+json', async (_what, token) => {
      const res = await post(token, { peer: { kind: 'direct', id: 'alice' }, text: 'hello' });
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(res.body).toEqual({
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: 'a valid bearer token is required',
        instance: '/channels/http/messages',
      });
    });

    it('checks the token before the body, so an anonymous caller learns nothing about the schema', async () => {
      const res = await post(WRONG, { nonsense: true });
      expect(res.status).toBe(401);
    });

    const BARE_401 = {
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      detail: 'a valid bearer token is required',
      instance: '/channels/http/messages',
    };

    it.each([
      ['a malformed JSON body', '{"peer": {', 'application/json'],
      ['a body over the 2 MiB parser limit', `{"text":"${'x'.repeat(3 * 1024 * 1024)}"}`, 'application/json'],
      ['a body of another media type', 'peer=alice&text=hi', 'application/x-www-form-urlencoded'],
    ])('answers an anonymous caller sending %s with the same bare 401, without parsing it', async (_what, body, type) => {
      const res = await request(gw.url)
        .post('/channels/http/messages')
        .set('Content-Type', type)
        .set('Authorization', `Bearer ${WRONG}`)
        .send(body);
      bodies.push(res.text);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(res.body).toEqual(BARE_401);
    });

    it('answers 401 before the body is sent at all', async () => {
      const url = new URL('/channels/http/messages', gw.url);
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': '1048576' } });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, text });
            req.destroy();
          });
        });
        req.on('error', reject);
        // Fail cleanly (and free the connection) instead of hanging the suite when no answer comes.
        req.setTimeout(10_000, () => {
          req.destroy();
          reject(new Error('no answer: the gateway waits for the body before authenticating'));
        });
        // Only the headers go out; a server that waited for the promised 1 MiB would never answer.
        req.flushHeaders();
      });
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.text)).toEqual(BARE_401);
    });

    it('rejects a non-Bearer scheme carrying the right token', async () => {
      const res = await request(gw.url)
        .post('/channels/http/messages')
        .set('Authorization', `Basic ${DESK}`)
        .send({ peer: { kind: 'direct', id: 'a' }, text: 'x' });
      bodies.push(res.text);
      expect(res.status).toBe(401);
    });
  });

  describe('body validation', () => {
    it.each([
      ['missing text', { peer: { kind: 'direct', id: 'alice' } }, /text is required/],
      ['an unknown field', { peer: { kind: 'direct', id: 'alice' }, text: 'hi', txet: 'hi' }, /property txet should not exist/],
      ['an unknown peer field', { peer: { kind: 'direct', id: 'alice', name: 'A' }, text: 'hi' }, /peer\.property name should not exist/],
      [
        'a bad peer kind',
        { peer: { kind: 'dm', id: 'alice' }, text: 'hi' },
        /peer\.kind must be one of the following values: direct, group, channel/,
      ],
      ['a missing peer', { text: 'hi' }, /peer is required/],
      ['empty text', { peer: { kind: 'direct', id: 'alice' }, text: '' }, /text must be longer than or equal to 1 characters/],
      [
        'text over 65536 chars',
        { peer: { kind: 'direct', id: 'alice' }, text: 'x'.repeat(65_537) },
        /text must be shorter than or equal to 65536 characters/,
      ],
      ['a non-boolean wait', { peer: { kind: 'direct', id: 'alice' }, text: 'hi', wait: 'yes' }, /wait must be a boolean value/],
      [
        'a threadId containing the thread marker',
        { peer: { kind: 'direct', id: 'a' }, text: 'hi', threadId: 'x:thread:y' },
        /threadId should not contain/,
      ],
    ])('answers %s with a 400 naming the field', async (_what, body, detail) => {
      const res = await post(DESK, body);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body.detail).toMatch(detail);
    });

    it('answers a body nested deeper than the limit with a 400 naming it, before validation', async () => {
      const deep = `{"peer":{"kind":"direct","id":"a"},"text":"hi","wait":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
      const res = await request(gw.url)
        .post('/channels/http/messages')
        .set('Authorization', `Bearer ${DESK}`)
        .set('Content-Type', 'application/json')
        .send(deep);
      bodies.push(res.text);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body.detail).toBe('request body is nested more than 64 levels deep');
    });
  });

  describe('inbound messages', () => {
    it('routes by account binding, runs, and returns the reply; the transcript has the user and assistant lines', async () => {
      const res = await post(DESK, { peer: { kind: 'direct', id: 'alice' }, text: 'hello' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        runId: expect.any(String),
        sessionKey: 'agent:support:main',
        agentId: 'support',
        status: 'completed',
        reply: '[support] hello',
      });

      const store = gw.app.get<SessionStore>(SESSION_STORE);
      const lines = (await store.history('agent:support:main')).lines.filter((l) => l.runId === res.body.runId);
      expect(lines.map((l) => [l.role, l.text])).toEqual([
        ['user', 'hello'],
        ['assistant', '[support] hello'],
      ]);
      expect((await store.get('agent:support:main'))?.deliveryContext).toEqual({ channel: 'http', accountId: 'desk', to: 'alice' });
    });

    it('wait:false answers 202 with the run id at once, and the run then completes', async () => {
      const res = await post(DESK, { peer: { kind: 'direct', id: 'bob' }, text: 'later please', wait: false });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ runId: expect.any(String), sessionKey: 'agent:support:main' });
      const run = await gw.app.get(AgentRunner).waitForRun(res.body.runId, 5000);
      expect(run).toMatchObject({ status: 'completed', reply: '[support] later please', sessionKey: 'agent:support:main' });
    });

    it('an account without a binding goes to the default agent', async () => {
      const res = await post(NOISY, { peer: { kind: 'group', id: 'Room-1' }, text: 'anyone?' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ agentId: 'main', sessionKey: 'agent:main:http:group:room-1', reply: '[main] anyone?' });
    });

    it('a failed run answers 200 with status "failed" and the reason', async () => {
      const res = await post(BROKEN, { peer: { kind: 'direct', id: 'carol' }, text: 'hi' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        runId: expect.any(String),
        sessionKey: 'agent:claude:main',
        agentId: 'claude',
        status: 'failed',
        error: expect.stringContaining('no API key for provider anthropic'),
      });
    });

    it('uses session.dmScope: per-channel-peer gives each peer (and thread) its own session', async () => {
      await applyConfig({ dmScope: 'per-channel-peer' });
      const res = await post(DESK, { peer: { kind: 'direct', id: 'Alice' }, text: 'hello' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ sessionKey: 'agent:support:http:direct:alice', reply: '[support] hello' });

      const threaded = await post(DESK, { peer: { kind: 'direct', id: 'alice' }, threadId: 'T-9', text: 'in a thread' });
      expect(threaded.body.sessionKey).toBe('agent:support:http:direct:alice:thread:t-9');
      const store = gw.app.get<SessionStore>(SESSION_STORE);
      expect((await store.get('agent:support:http:direct:alice:thread:t-9'))?.deliveryContext).toEqual({
        channel: 'http',
        accountId: 'desk',
        to: 'alice',
        threadId: 'T-9',
      });
      const lines = (await store.history('agent:support:http:direct:alice')).lines;
      expect(lines.map((l) => l.role)).toEqual(['user', 'assistant']);
    });
  });

  describe('outbound deliveries through the ChannelRegistry', () => {
    it('POSTs to the account webhook with a valid signature over the exact body', async () => {
      received.length = 0;
      const result = await send({
        sessionKey: 'agent:main:http:group:room-1',
        to: 'Room-1',
        text: 'announce ✓',
        accountId: 'noisy',
        threadId: 'th-1',
      });
      expect(result.status).toBe('delivered');
      expect(received).toHaveLength(1);
      const [hit] = received;
      expect(hit).toMatchObject({ method: 'POST', url: '/hook' });
      expect(hit.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(hit.body)).toEqual({
        sessionKey: 'agent:main:http:group:room-1',
        to: 'Room-1',
        text: 'announce ✓',
        threadId: 'th-1',
        ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      const signature = hit.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
      expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(verifyWebhookSignature(hit.body, signature, NOISY)).toBe(true);
      expect(verifyWebhookSignature(hit.body, signature, BOUNCY)).toBe(false);
      expect(hit.body).not.toContain(NOISY);
    });

    it('without a webhook the delivery is stored in the session transcript', async () => {
      const result = await send({ sessionKey: 'agent:support:http:direct:alice', to: 'alice', text: 'stored reply', accountId: 'desk' });
      expect(result.status).toBe('stored');
      const { lines } = await gw.app.get<SessionStore>(SESSION_STORE).history('agent:support:http:direct:alice');
      expect(lines.at(-1)).toMatchObject({ role: 'assistant', text: 'stored reply', meta: { delivery: 'http', to: 'alice' } });
    });

    it('a webhook answering 302 is a failure and the Location is never requested', async () => {
      received.length = 0;
      const result = await send({ sessionKey: 'agent:main:main', to: 'x', text: 'hi', accountId: 'bouncy' });
      expect(result).toEqual({ status: 'failed', detail: 'webhook answered with a redirect (HTTP 302); redirects are not followed' });
      await new Promise((r) => setTimeout(r, 150));
      expect(received.map((r) => r.url)).toEqual(['/bounce']);
    });

    it('an unknown or unusable account fails without any request', async () => {
      received.length = 0;
      expect(await send({ sessionKey: 'agent:main:main', to: 'x', text: 'hi', accountId: 'nobody' })).toEqual({
        status: 'failed',
        detail: 'http account "nobody" is not configured',
      });
      expect((await send({ sessionKey: 'agent:main:main', to: 'x', text: 'hi', accountId: 'ghost' })).status).toBe('failed');
      expect(received).toHaveLength(0);
    });
  });

  describe('hot reload', () => {
    it('a rotated token applies at once: the old one is refused, the new one works', async () => {
      await applyConfig({ deskVar: 'DESK_TOKEN_NEXT' });
      expect((await post(DESK, { peer: { kind: 'direct', id: 'alice' }, text: 'old' })).status).toBe(401);
      const res = await post(DESK_NEXT, { peer: { kind: 'direct', id: 'alice' }, text: 'new' });
      expect(res.status).toBe(200);
      expect(res.body.reply).toBe('[support] new');
    });

    it('a disabled channel answers 404 problem+json even to a valid token, and stops deliveries', async () => {
      await applyConfig({ enabled: false, deskVar: 'DESK_TOKEN_NEXT' });
      const res = await post(DESK_NEXT, { peer: { kind: 'direct', id: 'alice' }, text: 'hi' });
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 404, title: 'Not Found' });
      expect(await send({ sessionKey: 'agent:main:main', to: 'x', text: 'hi', accountId: 'noisy' })).toMatchObject({ status: 'failed' });
    });

    it('a disabled channel answers 404 before reading the body, whoever calls', async () => {
      const res = await request(gw.url).post('/channels/http/messages').set('Content-Type', 'application/json').send('{"peer": {');
      bodies.push(res.text);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'the http channel is not enabled',
        instance: '/channels/http/messages',
      });
    });
  });

  it('documents the endpoint with its bearer scheme and examples', async () => {
    const docs = await request(gw.url).get('/docs-json').expect(200);
    bodies.push(docs.text);
    const op = docs.body.paths['/channels/http/messages']?.post;
    expect(op.security).toEqual([{ 'http-channel': [] }]);
    expect(op.description).toContain('X-Clawgate-Signature: sha256=<hex>');
    expect(Object.keys(op.requestBody.content['application/json'].examples)).toEqual(['direct', 'threadNoWait', 'streamed']);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '202', '400', '401', '404']));
  });

  it('no response in this suite carried a token value', async () => {
    const config = await request(gw.url).get('/admin/config').expect(200);
    bodies.push(config.text);
    expect(bodies.length).toBeGreaterThan(30);
    for (const token of TOKENS) expect(bodies.filter((b) => b.includes(token))).toEqual([]);
  });
});
