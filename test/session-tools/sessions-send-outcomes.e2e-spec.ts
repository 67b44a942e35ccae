import { randomUUID } from 'node:crypto';
import Ajv, { ValidateFunction } from 'ajv';
import request from 'supertest';
import { ToolRegistry } from '../../src/modules/runtime/tool-registry';
import { agentBrain, BrainAnswer, BrainInput } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import type { FakeStep } from '../support/fake-model-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { KEPT_EXCHANGES_REFUSALS } from '../support/kept-exchanges-refusals';
import { startWebhook, WebhookReceiver } from '../support/webhook-receiver';
import { API_CLIENT } from '../support/admin-client';

/**
 * sessions_send results a caller can act on: each names round one's run, and GET /admin/runs/:runId (operator)
 * and session_status with runId (agents party to the exchange) tell later what became of it — round one's reply,
 * the ping-pong, the announce — also after a restart. Real HTTP, a real state dir, agents scripted behind a fake
 * OpenAI server, the announce posted to a real webhook.
 */

const DESK_TOKEN = 'desk-token-for-outcomes';
const SUPPORT = 'agent:support:main';
const EXPERT = 'agent:expert:http:group:tech-group';
const SLOW = 'slow question';

const config = (modelUrl: string, webhookUrl: string, keptExchanges: unknown = 10_000) => `{
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelUrl}" } } },
  agents: { list: [
    { id: "support", model: "fake/gpt" },
    { id: "expert", model: "fake/gpt" },
    { id: "outsider", model: "fake/gpt" },
  ] },
  bindings: [
    { agentId: "support", match: { channel: "http", accountId: "desk" } },
    { agentId: "expert", match: { channel: "http", accountId: "desk", peer: { kind: "group", id: "tech-group" } } },
    { agentId: "outsider", match: { channel: "http", accountId: "desk", peer: { kind: "direct", id: "outsider" } } },
  ],
  tools: { agentToAgent: { enabled: true, allow: ["*"] }, sessions: { visibility: "all" } },
  session: { agentToAgent: { maxPingPongTurns: 2, keptExchanges: ${JSON.stringify(keptExchanges)} } },
  channels: { http: { enabled: true, accounts: { desk: { token: "\${DESK_TOKEN}", webhookUrl: "${webhookUrl}" } } } },
}`;

/**
 * The agents: "ask expert: …" makes support call sessions_send, "check <runId>" makes any agent call session_status
 * with it; a tool result comes back as the reply `result:<the result as JSON>`, so the HTTP answer carries it.
 */
function decide({ agentId, step, message, toolResult, system }: BrainInput): BrainAnswer {
  if (toolResult) return { text: `result:${JSON.stringify(toolResult)}` };
  const turn = Number(/turn (\d+) of/.exec(system)?.[1] ?? 0);
  if (step === 'round-one') return { text: `expert answer to: ${message}` };
  if (step === 'ping-pong') return { text: `${agentId} turn ${turn}` };
  if (step === 'announce') return { text: `Announcement: ${agentId} settled it` };
  if (message.startsWith('ask expert: ')) {
    return { tool: 'sessions_send', args: { sessionKey: EXPERT, message: message.slice('ask expert: '.length), timeoutSeconds: 30 } };
  }
  if (message.startsWith('check ')) return { tool: 'session_status', args: { runId: message.slice('check '.length) } };
  return { text: `${agentId} here` };
}

describe('sessions_send outcomes: run ids, GET /admin/runs/:runId, session_status with runId (e2e)', () => {
  let model: FakeOpenAiServer;
  let hook: WebhookReceiver;
  let gw: TestGateway;
  let releaseSlow: () => void;
  let runReportSchema: ValidateFunction;

  const say = (peer: Record<string, string>, text: string) =>
    request(gw.url).post('/channels/http/messages').set('Authorization', `Bearer ${DESK_TOKEN}`).send({ peer, text }).expect(200);
  /** What the agent's tool call answered, read back from the reply the scripted model made of it. */
  const toolResultIn = (reply: string): Record<string, any> => {
    expect(reply).toMatch(/^result:/);
    return JSON.parse(reply.slice('result:'.length));
  };
  const statusFrom = async (peer: Record<string, string>, runId: string) => toolResultIn((await say(peer, `check ${runId}`)).body.reply);
  const sendAs = (sessionKey: string, body: Record<string, unknown>) =>
    request(gw.url)
      .post(`/admin/sessions/${encodeURIComponent(sessionKey)}/send`)
      .send(body)
      .expect(200);
  const report = (runId: string) => request(gw.url).get(`/admin/runs/${runId}`);
  const finishedReport = (runId: string) =>
    waitFor(
      `exchange of ${runId} finished`,
      async () => {
        const res = await report(runId).expect(200);
        return res.body.exchange?.state === 'finished' ? res.body : undefined;
      },
      10_000,
    );
  const expectDocumented = (body: unknown) => {
    runReportSchema(body);
    expect(runReportSchema.errors ?? []).toEqual([]);
  };

  beforeEach(async () => {
    model = await new FakeOpenAiServer().start();
    hook = await startWebhook();
    const slow = new Promise<void>((resolve) => (releaseSlow = resolve));
    const think = agentBrain(model, decide);
    // Round one of the slow question answers only once the test lets it.
    const answer: FakeStep = (req) => {
      const last = req.body.messages.at(-1);
      return last?.role === 'user' && last.content === SLOW ? { after: slow, reply: think(req) } : think(req);
    };
    model.always(answer);
    gw = await startTestGateway(config(model.baseUrl, hook.url), { env: { DESK_TOKEN } });
    // The expert's group session exists with a delivery context: its announce goes to the webhook.
    await say({ kind: 'group', id: 'tech-group' }, 'hello team');
    const doc = (await request(gw.url).get('/docs-json').expect(200)).body;
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    runReportSchema = ajv.compile({
      $ref: `openapi.json${doc.paths['/admin/runs/{runId}'].get.responses['200'].content['application/json'].schema.$ref}`,
    });
  });
  afterEach(async () => {
    releaseSlow();
    await gw.stop();
    await model.close();
    await hook.close();
  });

  it('ok: the result names round one; the run record then shows its reply, the ping-pong and the delivered announce', async () => {
    const sent = toolResultIn((await say({ kind: 'direct', id: 'customer' }, 'ask expert: why E42?')).body.reply);
    expect(sent).toEqual({ status: 'ok', runId: expect.any(String), sessionKey: EXPERT, reply: 'expert answer to: why E42?' });

    const body = await finishedReport(sent.runId);
    expectDocumented(body);
    expect(body.run).toMatchObject({ runId: sent.runId, agentId: 'expert', sessionKey: EXPERT, status: 'completed', toolRounds: 0 });
    expect(body.run.reply).toBe('expert answer to: why E42?');
    expect(body.exchangeStep).toBe('round-one');
    const { exchange } = body;
    expect(exchange).toMatchObject({
      runId: sent.runId,
      requesterSessionKey: SUPPORT,
      targetSessionKey: EXPERT,
      request: 'why E42?',
      callerStatus: 'ok',
      roundOne: { runId: sent.runId, status: 'completed', reply: 'expert answer to: why E42?' },
    });
    // maxPingPongTurns 2, requester first.
    expect(exchange.pingPong).toMatchObject({
      maxTurns: 2,
      endedBecause: 'max-turns',
      turns: [
        { turn: 1, role: 'requester', sessionKey: SUPPORT, status: 'completed', reply: 'support turn 1' },
        { turn: 2, role: 'target', sessionKey: EXPERT, status: 'completed', reply: 'expert turn 2' },
      ],
    });
    expect(exchange.announce).toMatchObject({
      status: 'delivered',
      detail: 'webhook answered HTTP 204',
      target: { channel: 'http', accountId: 'desk', to: 'tech-group' },
      step: { sessionKey: EXPERT, status: 'completed', reply: 'Announcement: expert settled it' },
    });
    for (const t of [
      exchange.startedAt,
      exchange.endedAt,
      exchange.announce.at,
      exchange.roundOne.endedAt,
      exchange.pingPong.turns[1].endedAt,
    ]) {
      expect(Number.isNaN(Date.parse(t))).toBe(false);
    }
    expect(Date.parse(exchange.announce.at)).toBeGreaterThanOrEqual(Date.parse(exchange.roundOne.endedAt));
    expect(JSON.parse(hook.received[0].body).text).toBe('Announcement: expert settled it');

    // Any run of the exchange leads to it; the announce run is reported as that step.
    const announce = (await report(exchange.announce.step.runId).expect(200)).body;
    expect(announce).toMatchObject({ exchangeStep: 'announce', run: { sessionKey: EXPERT, status: 'completed' } });
    expect(announce.exchange.runId).toBe(sent.runId);
    // A run of no exchange is reported alone.
    const plain = (await say({ kind: 'group', id: 'tech-group' }, 'anyone?')).body;
    expect((await report(plain.runId).expect(200)).body).toEqual({
      run: expect.objectContaining({ runId: plain.runId, status: 'completed' }),
    });
  });

  it('accepted: a send that did not wait learns the reply and the announce afterwards, over HTTP and through session_status', async () => {
    const accepted = (await sendAs(SUPPORT, { sessionKey: EXPERT, message: 'look at build 7', timeoutSeconds: 0 })).body;
    expect(accepted).toEqual({ status: 'accepted', runId: expect.any(String), sessionKey: EXPERT });

    const body = await finishedReport(accepted.runId);
    expectDocumented(body);
    expect(body.exchange).toMatchObject({
      callerStatus: 'accepted',
      roundOne: { status: 'completed', reply: 'expert answer to: look at build 7' },
      pingPong: { turns: [{ turn: 1 }, { turn: 2 }], endedBecause: 'max-turns' },
      announce: { status: 'delivered', target: { channel: 'http', to: 'tech-group' } },
    });

    // The requester (support's main session) and the target (the expert's group session) are party to it.
    const fromSupport = await statusFrom({ kind: 'direct', id: 'customer' }, accepted.runId);
    expect(fromSupport).toEqual({ status: 'ok', ...body });
    const fromExpert = await statusFrom({ kind: 'group', id: 'tech-group' }, accepted.runId);
    expect(fromExpert).toMatchObject({ status: 'ok', run: { runId: accepted.runId }, exchange: { announce: { status: 'delivered' } } });
    // Another agent is not, although the policy would let it read those sessions: as if the run did not exist.
    expect(await statusFrom({ kind: 'direct', id: 'outsider' }, accepted.runId)).toEqual({
      status: 'not_found',
      error: `no run ${accepted.runId} that this session is party to (unknown, forgotten, or another session's)`,
    });
  });

  it('timeout: the caller hears timeout with the run id; the run completing later, and the rest of the exchange, show up afterwards', async () => {
    const timedOut = (await sendAs(SUPPORT, { sessionKey: EXPERT, message: SLOW, timeoutSeconds: 1 })).body;
    expect(timedOut).toEqual({
      status: 'timeout',
      runId: expect.any(String),
      sessionKey: EXPERT,
      error: 'no reply within 1s; the run goes on',
    });

    const pending = (await report(timedOut.runId).expect(200)).body;
    expectDocumented(pending);
    expect(pending.run).toMatchObject({ runId: timedOut.runId, status: 'running' });
    expect(pending.run.reply).toBeUndefined();
    expect(pending.exchange).toMatchObject({ state: 'running', callerStatus: 'timeout', roundOne: { status: 'running' } });
    expect(pending.exchange.pingPong).toBeUndefined();

    releaseSlow();
    const body = await finishedReport(timedOut.runId);
    expect(body.run).toMatchObject({ status: 'completed', reply: `expert answer to: ${SLOW}` });
    expect(body.exchange).toMatchObject({
      callerStatus: 'timeout',
      roundOne: { status: 'completed', reply: `expert answer to: ${SLOW}` },
      announce: { status: 'delivered' },
    });
    expect(Date.parse(body.exchange.roundOne.endedAt)).toBeGreaterThan(Date.parse(body.exchange.startedAt) + 900);
  });

  it('after a restart the outcome of a finished exchange is still found; one the restart cut short says so', async () => {
    const done = (await sendAs(SUPPORT, { sessionKey: EXPERT, message: 'before the restart', timeoutSeconds: 0 })).body;
    const before = await finishedReport(done.runId);
    const cut = (await sendAs(SUPPORT, { sessionKey: EXPERT, message: SLOW, timeoutSeconds: 0 })).body;
    await waitFor('the slow round one at the model', async () => model.requests.some((r) => r.body.messages.at(-1)?.content === SLOW));

    gw = await gw.restart();
    const after = (await report(done.runId).expect(200)).body;
    expectDocumented(after);
    // The runtime forgot the run; the stored exchange still has it (without the runtime's tool rounds and usage).
    const { toolRounds, usage, ...kept } = before.run;
    expect(toolRounds).toBe(0);
    expect(usage).toBeDefined();
    expect(after).toEqual({ ...before, run: kept });
    expect(await statusFrom({ kind: 'direct', id: 'customer' }, done.runId)).toMatchObject({
      status: 'ok',
      exchange: { announce: { status: 'delivered' } },
    });

    // The shutdown aborted the slow round one; the exchange ended there.
    const stopped = (await report(cut.runId).expect(200)).body;
    expect(stopped.run).toMatchObject({ status: 'aborted', error: 'the gateway is shutting down' });
    expect(stopped.exchange).toMatchObject({ state: 'finished', callerStatus: 'accepted', roundOne: { status: 'aborted' } });
    expect(stopped.exchange.announce).toBeUndefined();
  });

  it('keeps the last session.agentToAgent.keptExchanges exchanges, read as the next one starts (hot)', async () => {
    const first = (await sendAs(SUPPORT, { sessionKey: EXPERT, message: 'one', timeoutSeconds: 0 })).body;
    await finishedReport(first.runId);
    await gw.writeConfig(config(model.baseUrl, hook.url, 1));
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200);
    expect((await report(first.runId).expect(200)).body.exchange.runId).toBe(first.runId);
    const second = (await sendAs(SUPPORT, { sessionKey: EXPERT, message: 'two', timeoutSeconds: 0 })).body;
    await finishedReport(second.runId);
    // The runtime still remembers the first run, but its exchange is gone once the second one is written (≤ 250 ms).
    await waitFor('the first exchange trimmed', async () => (await report(first.runId).expect(200)).body.exchange === undefined);
    expect((await report(first.runId).expect(200)).body).toEqual({ run: expect.objectContaining({ runId: first.runId }) });
    gw = await gw.restart();
    await report(first.runId).expect(404);
    expect((await report(second.runId).expect(200)).body.exchange.request).toBe('two');
  });

  it.each(KEPT_EXCHANGES_REFUSALS)('refuses keptExchanges %j on validate and reload, naming the key', async (value, message) => {
    const text = config(model.baseUrl, hook.url, value);
    const validated = await request(gw.url).post('/admin/config/validate').set('Content-Type', 'application/json5').send(text).expect(422);
    const error = expect.objectContaining({ path: 'session.agentToAgent.keptExchanges', message });
    expect(validated.body.errors).toEqual([error]);
    await gw.writeConfig(text);
    expect((await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(422)).body.errors).toEqual([error]);
    await request(gw.url).get('/healthz').expect(200);
  });

  it('refuses bad input: unknown run 404 and malformed id 400 (problem+json naming it), bad session_status arguments', async () => {
    const unknown = randomUUID();
    const missing = await report(unknown).expect(404);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect(missing.body.detail).toContain(`no run ${unknown}`);
    const malformed = await report('not-a-run-id').expect(400);
    expect(malformed.headers['content-type']).toContain('application/problem+json');
    expect(malformed.body.detail).toMatch(/^"not-a-run-id" is not a run id/);
    await report(encodeURIComponent(`${unknown} `)).expect(400);

    // A run id is case-insensitive.
    const accepted = (await sendAs(SUPPORT, { sessionKey: EXPERT, message: 'case', timeoutSeconds: 0 })).body;
    expect((await report(accepted.runId.toUpperCase()).expect(200)).body.run.runId).toBe(accepted.runId);

    const registry = gw.app.get(ToolRegistry);
    const ctx = { sessionKey: SUPPORT, agentId: 'support', signal: new AbortController().signal };
    const open = { tools: { allow: [], deny: [] } };
    const call = (args: unknown) => registry.call(open, 'session_status', args, ctx);
    expect(await call({ runId: 'zzz' })).toEqual({
      status: 'error',
      error:
        '"zzz" is not a run id (expected a UUID such as 0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b, the runId of a sessions_send or sessions_spawn result)',
    });
    expect(await call({ runId: accepted.runId, sessionKey: SUPPORT })).toEqual({
      status: 'error',
      error: 'give either sessionKey or runId, not both',
    });
    expect((await call({ runId: 7 })).error).toBe('invalid arguments for session_status: argument "runId" must be string');
    expect((await call({ runId: '' })).error).toBe(
      'invalid arguments for session_status: argument "runId" must NOT have fewer than 1 characters',
    );
    expect(await call({ runId: unknown })).toMatchObject({ status: 'not_found' });
    // The gateway is still up and answering.
    await report(accepted.runId).expect(200);
  });
});
