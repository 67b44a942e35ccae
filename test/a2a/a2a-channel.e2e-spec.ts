import request from 'supertest';
import { A2A_MESSAGES } from '../../src/modules/a2a-channel/protocol/limits-and-messages';
import { A2aTaskService } from '../../src/modules/a2a-channel/operations/task.service';
import { A2A_CLOCK, Clock } from '../../src/modules/a2a-channel/model/clock';
import { ChannelRegistry } from '../../src/modules/channels/channel-registry';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import type { RecordedRequest } from '../support/fake-model-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * The A2A channel around the JSON-RPC core (docs/a2a.md): the Agent Card, session isolation,
 * task outcomes, FIFO order, expiry, hot reload of peers/limits/exposure, the admin views, the channel
 * adapter, and shutdown.
 */

const TOKENS = {
  hermes: 'hermes-token-channel-0001',
  iris: 'iris-token-channel-000002',
  quiet: 'quiet-token-channel-00003',
  broken: 'broken-token-channel-0004',
  slow: 'slow-token-channel-000005',
  rotated: 'hermes-token-rotated-0099',
};

interface Options {
  enabled?: boolean;
  hermesToken?: string;
  withIris?: boolean;
  exposeAgents?: string[];
  trustedProxies?: string[];
  advertisedUrl?: string;
}

describe('A2A channel (e2e)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  const bodies: string[] = [];

  const config = (o: Options = {}) => `{
    gateway: { trustedProxies: ${JSON.stringify(o.trustedProxies ?? [])} },
    models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}", timeoutMs: 600000 } } },
    agents: { list: [
      { id: "main", default: true },
      { id: "support", identity: { name: "Support Desk" } },
      { id: "quiet", model: "fake/quiet" }, { id: "broken", model: "fake/broken" }, { id: "slow", model: "fake/slow" },
    ] },
    bindings: [
      { agentId: "quiet", match: { channel: "a2a", peer: { kind: "direct", id: "quiet" } } },
      { agentId: "broken", match: { channel: "a2a", peer: { kind: "direct", id: "broken" } } },
      { agentId: "slow", match: { channel: "a2a", peer: { kind: "direct", id: "slow" } } },
    ],
    session: { dmScope: "main" },
    channels: { a2a: {
      enabled: ${o.enabled ?? true}, rateLimitPerMinute: 0, replyTimeoutMs: 5000,
      ${o.exposeAgents ? `exposeAgents: ${JSON.stringify(o.exposeAgents)},` : ''}
      ${o.advertisedUrl ? `advertisedUrl: "${o.advertisedUrl}",` : ''}
      peers: {
        hermes: { token: "${o.hermesToken ?? TOKENS.hermes}", url: "https://hermes.example/a2a/v1", outboundToken: "outbound-secret-value-77" },
        ${o.withIris === false ? '' : `iris: { token: "${TOKENS.iris}" },`}
        quiet: { token: "${TOKENS.quiet}" }, broken: { token: "${TOKENS.broken}" }, slow: { token: "${TOKENS.slow}" },
      },
    } },
  }`;

  const rpc = async (token: string, method: string, params: unknown) => {
    const res = await request(gw.url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${token}`)
      .send({ jsonrpc: '2.0', id: 1, method, params });
    bodies.push(res.text);
    return res;
  };
  const send = (token: string, text: string, extra: { contextId?: string; returnImmediately?: boolean } = {}) =>
    rpc(token, 'SendMessage', {
      message: {
        messageId: `m-${Math.random()}`,
        role: 'ROLE_USER',
        parts: [{ text }],
        ...(extra.contextId ? { contextId: extra.contextId } : {}),
      },
      ...(extra.returnImmediately ? { configuration: { returnImmediately: true } } : {}),
    });
  const getTask = async (token: string, id: string) => (await rpc(token, 'GetTask', { id })).body;
  const revision = async () => (await request(gw.url).get('/admin/config/status')).body.revision as string;
  const applyConfig = async (o: Options) => {
    const before = await revision();
    await gw.writeConfig(config(o));
    await waitFor('the new config revision', async () => (await revision()) !== before, 10_000);
  };

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    model.always((req: RecordedRequest) => {
      if (req.body.model === 'quiet')
        return {
          status: 200,
          json: {
            id: 'c',
            object: 'chat.completion',
            created: 0,
            model: 'quiet',
            choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'stop' }],
          },
        };
      if (req.body.model === 'broken')
        return { status: 503, json: { error: { message: 'upstream overloaded', type: 'server_error', param: null, code: null } } };
      return 'stall';
    });
    gw = await startTestGateway(config());
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
  });

  describe('Agent Card', () => {
    it('serves the 1.0 card, and its 0.3 form on the older path, with Cache-Control, an ETag and 304 on If-None-Match', async () => {
      const card = await request(gw.url).get('/.well-known/agent-card.json').expect(200);
      const legacy = await request(gw.url).get('/.well-known/agent.json').expect(200);
      expect(legacy.body).toMatchObject({ protocolVersion: '0.3.0', url: `${gw.url}/a2a/v1`, preferredTransport: 'JSONRPC' });
      expect(legacy.body.skills).toEqual(card.body.skills);
      expect(legacy.headers.etag).not.toBe(card.headers.etag);
      expect((await request(gw.url).get('/.well-known/agent.json').set('If-None-Match', legacy.headers.etag)).status).toBe(304);
      expect(card.headers['cache-control']).toBe('max-age=300');
      expect(card.headers.etag).toMatch(/^"[^"]+"$/);
      expect(card.body.supportedInterfaces).toEqual([
        { url: `${gw.url}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${gw.url}/a2a/v1`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ]);
      expect(card.body.skills.map((s: { id: string }) => s.id)).toEqual(['main', 'support', 'quiet', 'broken', 'slow']);
      const again = await request(gw.url).get('/.well-known/agent-card.json').set('If-None-Match', card.headers.etag);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(card.headers.etag);
      bodies.push(card.text);
    });

    it('sends Last-Modified (the time the card last changed); If-Modified-Since answers 304, If-None-Match decides when both come', async () => {
      const path = '/.well-known/agent-card.json';
      const card = await request(gw.url).get(path).expect(200);
      const lastModified = card.headers['last-modified'];
      expect(new Date(lastModified).toUTCString()).toBe(lastModified);
      expect(Date.parse(lastModified)).toBeLessThanOrEqual(Date.now());
      const since = async (date: string, etag?: string) => {
        let req = request(gw.url).get(path).set('If-Modified-Since', date);
        if (etag) req = req.set('If-None-Match', etag);
        return req;
      };
      const notModified = await since(lastModified);
      expect(notModified.status).toBe(304);
      expect(notModified.headers['last-modified']).toBe(lastModified);
      expect((await since(new Date(Date.parse(lastModified) - 1000).toUTCString())).status).toBe(200);
      expect((await since('not a date')).status).toBe(200);
      expect((await since(lastModified, '"some-other-etag"')).status).toBe(200);
      expect((await since('Thu, 01 Jan 1970 00:00:00 GMT', card.headers.etag)).status).toBe(304);
      expect((await request(gw.url).get('/.well-known/agent.json').set('If-Modified-Since', lastModified)).headers).toHaveProperty(
        'last-modified',
      );

      // A reload that leaves the card alone keeps its time; one that changes it moves it to that reload.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await applyConfig({ hermesToken: TOKENS.rotated });
      expect((await request(gw.url).get(path).expect(200)).headers['last-modified']).toBe(lastModified);
      await applyConfig({ advertisedUrl: 'https://changed.example/' });
      const changed = await request(gw.url).get(path).set('If-Modified-Since', lastModified).expect(200);
      expect(Date.parse(changed.headers['last-modified'])).toBeGreaterThan(Date.parse(lastModified));
      await applyConfig({});
    });

    it('derives the origin from Host; X-Forwarded-Proto only counts from a trusted proxy', async () => {
      const url = async (headers: Record<string, string>) => {
        let req = request(gw.url).get('/.well-known/agent-card.json');
        for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
        return (await req.expect(200)).body.supportedInterfaces[0].url as string;
      };
      expect(await url({ Host: 'claw.example:8443', 'X-Forwarded-Proto': 'https' })).toBe('http://claw.example:8443/a2a/v1');
      await applyConfig({ trustedProxies: ['127.0.0.0/8'] });
      expect(await url({ Host: 'claw.example:8443', 'X-Forwarded-Proto': 'https' })).toBe('https://claw.example:8443/a2a/v1');
      await applyConfig({ advertisedUrl: 'https://public.example/gw/' });
      expect(await url({ Host: 'internal:1' })).toBe('https://public.example/gw/a2a/v1');
      await applyConfig({});
    });

    it('answers 404 JSON for the card and the endpoint while the channel is disabled', async () => {
      await applyConfig({ enabled: false });
      const card = await request(gw.url).get('/.well-known/agent-card.json');
      expect(card.status).toBe(404);
      expect(card.headers['content-type']).toMatch(/json/);
      const rpcRes = await send(TOKENS.hermes, 'hi');
      expect(rpcRes.status).toBe(404);
      expect(rpcRes.body).toMatchObject({ status: 404 });
      await applyConfig({});
      expect((await send(TOKENS.hermes, 'hi')).status).toBe(200);
    });
  });

  describe('sessions and outcomes', () => {
    it('isolates (peer, contextId) sessions even with session.dmScope "main"', async () => {
      const a = (await send(TOKENS.hermes, 'from hermes', { contextId: 'shared' })).body.result.task;
      const b = (await send(TOKENS.iris, 'from iris', { contextId: 'shared' })).body.result.task;
      expect([a.status.state, b.status.state]).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED']);
      const sessions = gw.app.get<SessionStore>(SESSION_STORE);
      const hermes = await sessions.history('agent:main:a2a:default:direct:hermes:shared');
      const iris = await sessions.history('agent:main:a2a:default:direct:iris:shared');
      expect(hermes.lines.filter((l) => l.role === 'user').map((l) => l.text)).toEqual(['from hermes']);
      expect(iris.lines.filter((l) => l.role === 'user').map((l) => l.text)).toEqual(['from iris']);
      // The operator's main session never sees peer traffic.
      expect(await sessions.get('agent:main:main')).toBeUndefined();
      const entry = await sessions.get('agent:main:a2a:default:direct:hermes:shared');
      expect(entry?.deliveryContext).toEqual({ channel: 'a2a', accountId: 'default', to: 'hermes:shared' });
    });

    it('an empty reply completes with the status message; a failed run is FAILED with its error', async () => {
      const quiet = (await send(TOKENS.quiet, 'say nothing')).body.result.task;
      expect(quiet.status.state).toBe('TASK_STATE_COMPLETED');
      expect(quiet.artifacts).toEqual([]);
      expect(quiet.status.message).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: 'Agent completed without reply text' }] });
      const broken = (await send(TOKENS.broken, 'try')).body.result.task;
      expect(broken.status.state).toBe('TASK_STATE_FAILED');
      expect(broken.status.message.parts[0].text).toContain('upstream overloaded');
      expect(broken.status.message.parts[0].text.length).toBeLessThanOrEqual(512);
    });

    it('a blocking call returns the task still WORKING after replyTimeoutMs, without cancelling the run', async () => {
      const started = Date.now();
      const task = (await send(TOKENS.slow, 'take your time')).body.result.task;
      expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
      expect(task.status.state).toBe('TASK_STATE_WORKING');
      const runner = gw.app.get(AgentRunner);
      const admin = (await request(gw.url).get(`/admin/a2a/tasks/${task.id}`).expect(200)).body;
      expect(runner.getRun(admin.runId)?.status).toBe('running');
    }, 15_000);

    it('completes one context in FIFO order', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++)
        ids.push((await send(TOKENS.hermes, `turn ${i}`, { contextId: 'fifo', returnImmediately: true })).body.result.task.id);
      const tasks = await waitFor('all turns completed', async () => {
        const all = await Promise.all(ids.map((id) => getTask(TOKENS.hermes, id)));
        return all.every((t) => t.result.status.state === 'TASK_STATE_COMPLETED') && all.map((t) => t.result);
      });
      expect(tasks.map((t: { artifacts: Array<{ parts: Array<{ text: string }> }> }) => t.artifacts[0].parts[0].text)).toEqual(
        ids.map((_, i) => `[main] turn ${i}`),
      );
      const stamps = tasks.map((t: { status: { timestamp: string } }) => Date.parse(t.status.timestamp));
      expect([...stamps].sort((x, y) => x - y)).toEqual(stamps);
      const { lines } = await gw.app.get<SessionStore>(SESSION_STORE).history('agent:main:a2a:default:direct:hermes:fifo');
      expect(lines.filter((l) => l.role === 'user').map((l) => l.text)).toEqual(ids.map((_, i) => `turn ${i}`));
    });

    it('expires a task idle for an hour and drops the late result of its run', async () => {
      const clock = gw.app.get<Clock>(A2A_CLOCK);
      const task = (await send(TOKENS.slow, 'never answered', { returnImmediately: true })).body.result.task;
      const later = Date.now() + 61 * 60_000;
      const spy = jest.spyOn(clock, 'now').mockImplementation(() => later);
      try {
        const outcome = await gw.app.get(A2aTaskService).sweep();
        expect(outcome.expired.map((t) => t.id)).toContain(task.id);
      } finally {
        spy.mockRestore();
      }
      const expired = (await getTask(TOKENS.slow, task.id)).result;
      expect(expired.status.state).toBe('TASK_STATE_FAILED');
      expect(expired.status.message.parts[0].text).toBe(A2A_MESSAGES.expired);
      // The run is still going; when it ends now, its result must not overwrite the expired task.
      const runner = gw.app.get(AgentRunner);
      const { runId } = (await request(gw.url).get(`/admin/a2a/tasks/${task.id}`)).body;
      expect(runner.abortRun(runId, 'operator stopped it')).toBe(true);
      await waitFor('the run to end', async () => runner.getRun(runId)?.status === 'aborted');
      await new Promise((r) => setTimeout(r, 50));
      expect((await getTask(TOKENS.slow, task.id)).result.status.message.parts[0].text).toBe(A2A_MESSAGES.expired);
    });
  });

  describe('hot reload', () => {
    it('a rotated token works at once, the old one stops; a removed peer stops on its next request', async () => {
      expect((await send(TOKENS.iris, 'still here')).status).toBe(200);
      await applyConfig({ hermesToken: TOKENS.rotated, withIris: false });
      expect((await send(TOKENS.rotated, 'new token')).body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect((await send(TOKENS.hermes, 'old token')).status).toBe(401);
      expect((await send(TOKENS.iris, 'removed')).status).toBe(401);
      await applyConfig({});
    });

    it('exposeAgents changes the card and which agent answers, live', async () => {
      await applyConfig({ exposeAgents: ['support'] });
      const card = (await request(gw.url).get('/.well-known/agent-card.json').expect(200)).body;
      expect(card.name).toBe('Support Desk');
      expect(card.skills.map((s: { id: string }) => s.id)).toEqual(['support']);
      // The default agent (main) is not exposed: the first exposed agent answers.
      const task = (await send(TOKENS.hermes, 'who answers?')).body.result.task;
      expect(task.artifacts[0].parts[0].text).toBe('[support] who answers?');
      await applyConfig({ exposeAgents: ['ghost'] });
      const refused = (await send(TOKENS.hermes, 'anyone?')).body.result.task;
      expect(refused.status.state).toBe('TASK_STATE_REJECTED');
      expect(refused.status.message.parts[0].text).toBe(A2A_MESSAGES.noExposedAgent);
      await applyConfig({});
    });
  });

  describe('admin API and channel adapter', () => {
    it('lists and filters tasks, shows one with its reply, 404 for an unknown id', async () => {
      const task = (await send(TOKENS.iris, 'for the admin', { contextId: 'admin-ctx' })).body.result.task;
      const list = (await request(gw.url).get('/admin/a2a/tasks').query({ peer: 'iris', contextId: 'admin-ctx' }).expect(200)).body;
      expect(list).toEqual({
        count: 1,
        tasks: [
          expect.objectContaining({
            id: task.id,
            peer: 'iris',
            contextId: 'admin-ctx',
            agentId: 'main',
            state: 'TASK_STATE_COMPLETED',
            hasReply: true,
          }),
        ],
      });
      expect(list.tasks[0].artifact).toBeUndefined();
      const failed = (await request(gw.url).get('/admin/a2a/tasks').query({ state: 'failed', limit: 2 }).expect(200)).body;
      expect(failed.count).toBeGreaterThan(0);
      expect(failed.tasks.every((t: { state: string }) => t.state === 'TASK_STATE_FAILED')).toBe(true);
      const one = (await request(gw.url).get(`/admin/a2a/tasks/${task.id}`).expect(200)).body;
      expect(one.artifact.text).toBe('[main] for the admin');
      expect(one.sessionKey).toBe('agent:main:a2a:default:direct:iris:admin-ctx');
      const missing = await request(gw.url).get('/admin/a2a/tasks/nope').expect(404);
      expect(missing.headers['content-type']).toMatch(/problem\+json/);
      await request(gw.url).get('/admin/a2a/tasks').query({ state: 'sleeping' }).expect(400);
    });

    it('lists peers without any token', async () => {
      const res = await request(gw.url).get('/admin/a2a/peers').expect(200);
      expect(res.body.enabled).toBe(true);
      expect(res.body.peers).toContainEqual({ name: 'hermes', usable: true, hasUrl: true, hasOutboundToken: true });
      expect(res.body.peers).toContainEqual({ name: 'iris', usable: true, hasUrl: false, hasOutboundToken: false });
      bodies.push(res.text);
    });

    it('the a2a channel adapter refuses to pretend it delivered', async () => {
      const adapter = gw.app.get(ChannelRegistry).get('a2a');
      expect(adapter).toBeDefined();
      expect(await adapter!.send({ sessionKey: 'agent:main:a2a:default:direct:hermes:x', to: 'hermes:x', text: 'announce' })).toEqual({
        status: 'failed',
        detail: 'A2A peers pull results with GetTask; use a2a_send for outbound messages',
      });
    });
  });

  afterAll(() => {
    // No response of this suite ever carried a token.
    const all = bodies.join('\n');
    expect(bodies.length).toBeGreaterThan(20);
    for (const token of [...Object.values(TOKENS), 'outbound-secret-value-77']) expect(all).not.toContain(token);
  });
});
