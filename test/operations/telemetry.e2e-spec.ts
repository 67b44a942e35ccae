// First: the gateways' log lines are read below (trace_id/span_id), so the logger must not be silenced.
import { captureLogLines, CapturedLogs } from '../support/captured-logs';
import request from 'supertest';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { OtlpReceiver, ReceivedSpan, SPAN_KIND, STATUS_ERROR } from '../support/otlp-receiver';

/**
 * Tracing across agents and gateways (docs/telemetry.md), with real parts only: a local OTLP/HTTP receiver,
 * two gateways in this process each exporting with its own service name, the fake OpenAI server as the model.
 * An http-channel message to `support` continues the caller's trace; its model calls sessions_send to `expert`
 * (round one, one ping-pong turn, the announce — later, on other lanes) and a2a_send to the second gateway. Every
 * span of both gateways is in that one trace, each under the parent it belongs to.
 */
const A_TO_B = 'token-a-presents-to-b-telemetry-7f3e';
const B_TO_A = 'token-b-presents-to-a-telemetry-2c9d';
const DESK = 'desk-token-telemetry-0123456789';
const CHAT_KEY = 'sk-clawgate-telemetry-0123456789';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

const configB = `{
  gateway: { telemetry: { enabled: true, serviceName: "gw-b" } },
  agents: { list: [{ id: "bob" }] },
  channels: { a2a: { enabled: true, peers: { a: { token: "\${A_TO_B}" } } } },
}`;

const configA = (modelUrl: string, bUrl: string) => `{
  gateway: {
    telemetry: { enabled: true, serviceName: "gw-a", sampleRatio: 1 },
    http: { endpoints: { chatCompletions: { enabled: true, keys: [{ name: "chat", token: "\${CHAT_KEY}", agents: ["support"] }] } } },
  },
  models: { providers: { scripted: { api: "openai-chat", baseUrl: "${modelUrl}", apiKey: "sk-scripted-telemetry" } } },
  agents: { list: [{ id: "support", default: true, model: "scripted/brain" }, { id: "expert", model: "scripted/brain" }] },
  tools: { agentToAgent: { enabled: true, allow: ["support", "expert"] }, sessions: { visibility: "all" } },
  session: { agentToAgent: { maxPingPongTurns: 1 } },
  channels: {
    http: { enabled: true, accounts: { desk: { token: "\${DESK}" } } },
    a2a: { enabled: true, peers: { b: { token: "\${B_TO_A}", url: "${bUrl}", outboundToken: "\${A_TO_B}" } } },
  },
}`;

/** Texts of the exchange: none of them may appear in any span. */
const TEXTS = ['customer build fails with E42', 'what causes E42?', 'E42 is a stale cache', 'ask bob about E42', 'All done'];

describe('OpenTelemetry tracing across agents and gateways (e2e)', () => {
  const saved = { ...process.env };
  let receiver: OtlpReceiver;
  let model: FakeOpenAiServer;
  let a: TestGateway;
  let b: TestGateway;
  let logs: CapturedLogs;

  beforeAll(async () => {
    logs = captureLogLines();
    receiver = await new OtlpReceiver().start();
    // What an operator sets: the SDK reads them (endpoint, protocol, a short batch delay so the test waits less).
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = receiver.tracesUrl;
    process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = 'http/json';
    process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
    model = await new FakeOpenAiServer().start();
    model.always(
      agentBrain(model, ({ agentId, step, message, toolResult }) => {
        if (agentId === 'expert') return { text: step === 'announce' ? 'ANNOUNCE_SKIP' : 'E42 is a stale cache' };
        if (step === 'ping-pong') return { text: 'Thanks, noted.' };
        if (toolResult?.peer) return { text: 'All done' };
        if (toolResult) return { tool: 'a2a_send', args: { peer: 'b', text: 'ask bob about E42', wait: true } };
        if (message.includes('E42')) return { tool: 'sessions_send', args: { agentId: 'expert', message: 'what causes E42?' } };
        return { text: 'hello back' };
      }),
    );
    const env = { A_TO_B, B_TO_A, DESK, CHAT_KEY };
    b = await startTestGateway(configB, { env });
    a = await startTestGateway(configA(model.baseUrl, `${b.url}/a2a/v1`), { env });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await model?.close();
    await receiver?.close();
    logs?.stop();
    process.env = saved;
  });

  const inTrace = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);
  const one = (spans: ReceivedSpan[], name: string, where: (s: ReceivedSpan) => boolean = () => true) => {
    const found = spans.filter((s) => s.name === name && where(s));
    if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length}: ${spans.map((s) => s.name).join(', ')}`);
    return found[0];
  };
  const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) => spans.filter((s) => s.parentSpanId === parent.spanId);

  it('puts the whole exchange — both agents, every sessions_send step and the second gateway — in the caller’s trace', async () => {
    const res = await request(a.url)
      .post('/channels/http/messages')
      .set('Authorization', `Bearer ${DESK}`)
      .set('traceparent', `00-${TRACE}-${CALLER_SPAN}-01`)
      .send({ peer: { kind: 'direct', id: 'customer-1' }, text: 'customer build fails with E42' })
      .expect(200);
    expect(res.body).toMatchObject({ status: 'completed', reply: 'All done' });

    // The ping-pong turn and the announce run in the background after the reply: wait for their spans. gw-b's server
    // span ends with its streamed response, after its run's span, and may come in a later export batch.
    const spans = await waitFor(
      'the announce, every run and the second gateway’s server span to be exported',
      async () => {
        const got = inTrace(TRACE);
        const runs = got.filter((s) => s.name === 'clawgate.run');
        const done = got.some((s) => s.name === 'clawgate.sessions_send.announce') && got.some((s) => s.name === 'POST /a2a/v1');
        return done && runs.length === 5 ? got : undefined;
      },
      15_000,
    );
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['gw-a', 'gw-b']));

    // gw-a: the request continues the caller's span; the support run is its child.
    const server = one(spans, 'POST /channels/http/messages');
    expect(server).toMatchObject({ service: 'gw-a', kind: SPAN_KIND.server, parentSpanId: CALLER_SPAN });
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.path': '/channels/http/messages',
      'http.route': '/channels/http/messages',
      'http.response.status_code': 200,
    });
    const supportRun = one(
      spans,
      'clawgate.run',
      (s) => s.attributes['clawgate.agent.id'] === 'support' && s.parentSpanId === server.spanId,
    );
    expect(supportRun.attributes).toMatchObject({
      'clawgate.session.key': 'agent:support:main',
      'clawgate.run.id': res.body.runId,
      'clawgate.run.status': 'completed',
      'clawgate.run.lane': 'main',
    });

    // Model calls: GenAI semantic conventions, client spans, children of the run; the request carried their context.
    const supportCalls = childrenOf(spans, supportRun).filter((s) => s.name === 'chat brain');
    expect(supportCalls).toHaveLength(3);
    for (const call of supportCalls) {
      expect(call.kind).toBe(SPAN_KIND.client);
      expect(call.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'openai',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'brain',
        'gen_ai.usage.input_tokens': 11,
        'gen_ai.usage.output_tokens': 7,
        'server.address': '127.0.0.1',
      });
    }
    const sentContexts = model.requests.map((r) => r.headers.traceparent);
    for (const call of supportCalls) expect(sentContexts).toContain(`00-${TRACE}-${call.spanId}-01`);

    // Tool calls.
    const sendTool = one(spans, 'execute_tool sessions_send');
    const a2aTool = one(spans, 'execute_tool a2a_send');
    for (const tool of [sendTool, a2aTool]) {
      expect(tool.parentSpanId).toBe(supportRun.spanId);
      expect(tool.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'clawgate.tool.status': 'ok' });
    }
    expect(sendTool.attributes['gen_ai.tool.name']).toBe('sessions_send');

    // sessions_send: round one, the ping-pong turn and the announce are children of the tool call, each the parent
    // of the run it started in the other session (carried in the provenance, since they run later on nested lanes).
    const chainId = one(spans, 'clawgate.sessions_send.round_one').attributes['clawgate.chain.id'];
    const steps: Array<[string, string, string]> = [
      ['clawgate.sessions_send.round_one', 'expert', 'agent:expert:main'],
      ['clawgate.sessions_send.ping_pong', 'support', 'agent:support:main'],
      ['clawgate.sessions_send.announce', 'expert', 'agent:expert:main'],
    ];
    for (const [name, agentId, sessionKey] of steps) {
      const step = one(spans, name);
      expect(step.parentSpanId).toBe(sendTool.spanId);
      expect(step.attributes).toMatchObject({ 'clawgate.chain.id': chainId, 'clawgate.chain.hop': 1, 'clawgate.session.key': sessionKey });
      const [run] = childrenOf(spans, step);
      expect(run).toMatchObject({ name: 'clawgate.run', service: 'gw-a' });
      expect(run.attributes).toMatchObject({
        'clawgate.agent.id': agentId,
        'clawgate.run.lane': 'nested',
        'clawgate.run.id': step.attributes['clawgate.run.id'],
        'clawgate.chain.id': chainId,
      });
      expect(childrenOf(spans, run).map((s) => s.name)).toEqual(['chat brain']);
    }
    expect(one(spans, 'clawgate.sessions_send.ping_pong').attributes['clawgate.ping_pong.turn']).toBe(1);
    expect(one(spans, 'clawgate.sessions_send.announce').attributes['clawgate.announce.status']).toBe('skipped');
    // The provenance in the expert's transcript carries that context next to the chain id.
    const { lines } = await a.app.get<SessionStore>(SESSION_STORE).history('agent:expert:main');
    const roundOne = one(spans, 'clawgate.sessions_send.round_one');
    expect(lines[0].provenance).toMatchObject({ chainId, hop: 1, traceparent: `00-${TRACE}-${roundOne.spanId}-01` });

    // a2a_send: client spans for the card and the streamed send; gw-b's server spans are their children.
    const card = one(spans, 'a2a GetAgentCard');
    const streamed = one(spans, 'a2a SendStreamingMessage');
    for (const call of [card, streamed]) {
      expect(call).toMatchObject({ service: 'gw-a', kind: SPAN_KIND.client, parentSpanId: a2aTool.spanId });
      expect(call.attributes['clawgate.peer']).toBe('b');
    }
    expect(streamed.attributes).toMatchObject({
      'rpc.system': 'jsonrpc',
      'rpc.method': 'SendStreamingMessage',
      'clawgate.task_id': expect.any(String),
    });
    const bCard = one(spans, 'GET /.well-known/agent-card.json');
    expect(bCard).toMatchObject({ service: 'gw-b', kind: SPAN_KIND.server, parentSpanId: card.spanId });
    const bServer = one(spans, 'POST /a2a/v1');
    expect(bServer).toMatchObject({ service: 'gw-b', kind: SPAN_KIND.server, parentSpanId: streamed.spanId });
    expect(bServer.attributes).toMatchObject({
      'clawgate.a2a.method': 'SendStreamingMessage',
      'clawgate.peer': 'a',
      'http.response.status_code': 200,
    });
    const bobRun = one(spans, 'clawgate.run', (s) => s.service === 'gw-b');
    expect(bobRun.parentSpanId).toBe(bServer.spanId);
    expect(bobRun.attributes).toMatchObject({
      'clawgate.agent.id': 'bob',
      'clawgate.session.key': 'agent:bob:a2a:default:direct:a:ctx-oc-b',
    });
    expect(one(spans, 'chat default', (s) => s.service === 'gw-b').attributes).toMatchObject({
      'gen_ai.provider.name': 'clawgate.echo',
      'gen_ai.request.model': 'default',
    });

    // Log lines written inside a span name it: the outbound audit line of the streamed send, for one.
    const audit = logs.lines.filter((l) => String(l.msg).startsWith('outbound {"kind":"a2a"') && l.span_id === streamed.spanId);
    expect(audit).toEqual([expect.objectContaining({ trace_id: TRACE })]);
    const boot = logs.lines.find((l) => String(l.msg).startsWith('tracing on: service gw-a'));
    expect(boot).toBeDefined();
    expect(boot).not.toHaveProperty('trace_id');

    // Every span is in the one trace and hangs from the caller's span; nothing failed; no text leaked into a span.
    const ids = new Set(spans.map((s) => s.spanId));
    for (const span of spans) expect(span.parentSpanId === CALLER_SPAN || ids.has(span.parentSpanId ?? '')).toBe(true);
    expect(spans.filter((s) => s.status.code === STATUS_ERROR)).toEqual([]);
    const exported = JSON.stringify(spans);
    for (const text of TEXTS) expect(exported).not.toContain(text);
    for (const secret of [A_TO_B, B_TO_A, DESK, 'sk-scripted-telemetry']) expect(exported).not.toContain(secret);
  });

  it('continues a traceparent on /v1/chat/completions and ignores an invalid one (a new trace)', async () => {
    const other = '0af7651916cd43dd8448eb211c80319c';
    const chat = (traceparent: string) =>
      request(a.url)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${CHAT_KEY}`)
        .set('traceparent', traceparent)
        .send({ model: 'agent:support', messages: [{ role: 'user', content: 'hi there' }] })
        .expect(200);
    await chat(`00-${other}-b7ad6b7169203331-01`);
    const server = await waitFor('the chat completion span', async () =>
      inTrace(other).find((s) => s.name === 'POST /v1/chat/completions'),
    );
    expect(server).toMatchObject({ kind: SPAN_KIND.server, parentSpanId: 'b7ad6b7169203331' });
    await waitFor('its run', async () => inTrace(other).some((s) => s.name === 'clawgate.run' && s.parentSpanId === server.spanId));

    const before = new Set(receiver.spans.map((s) => s.spanId));
    const bad = `00-${'f'.repeat(31)}x-b7ad6b7169203331-01`;
    await chat(bad);
    await request(a.url).get('/admin/config/status').set('traceparent', 'not a trace context').expect(200);
    const fresh = await waitFor('two new server spans', async () => {
      const found = receiver.spans.filter((s) => !before.has(s.spanId) && s.kind === SPAN_KIND.server);
      return found.length >= 2 ? found : undefined;
    });
    for (const span of fresh) {
      expect(span.parentSpanId).toBeUndefined();
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect([other, TRACE]).not.toContain(span.traceId);
    }
    expect(fresh.map((s) => s.name).sort()).toEqual(['GET /admin/config/status', 'POST /v1/chat/completions']);
  });

  it('off (the default): no span, no trace header to the model, and turning it on waits for a restart', async () => {
    const offConfig = (telemetry: string) => `{
      gateway: { telemetry: ${telemetry}, http: { endpoints: { chatCompletions: { enabled: true, keys: [{ name: "chat", token: "\${CHAT_KEY}", agents: ["support"] }] } } } },
      models: { providers: { scripted: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "support", model: "scripted/brain" }] },
    }`;
    const off = await startTestGateway(offConfig('{}'), { env: { CHAT_KEY } });
    try {
      const exported = receiver.spans.length;
      const asked = model.requests.length;
      await request(off.url)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${CHAT_KEY}`)
        .set('traceparent', `00-${TRACE}-${CALLER_SPAN}-01`)
        .send({ model: 'agent:support', messages: [{ role: 'user', content: 'hi there' }] })
        .expect(200);
      expect(model.requests.slice(asked).map((r) => r.headers.traceparent)).toEqual([undefined]);
      await new Promise((r) => setTimeout(r, 300)); // longer than the batch delay of the gateways that export
      expect(receiver.spans.length).toBe(exported);

      await off.writeConfig(offConfig('{ enabled: true, serviceName: "later" }'));
      const status = await waitFor('the reload', async () => {
        const res = await request(off.url).get('/admin/config/status').expect(200);
        return res.body.pendingRestart.length ? res.body : undefined;
      });
      expect(status.pendingRestart).toEqual(['gateway.telemetry.enabled', 'gateway.telemetry.serviceName']);
    } finally {
      await off.stop();
    }
  });
});

describe('gateway.telemetry config (e2e)', () => {
  it.each([
    ['a sampleRatio above 1', '{ enabled: true, sampleRatio: 2 }', 'gateway.telemetry.sampleRatio: must not be greater than 1'],
    ['a sampleRatio that is a string', '{ sampleRatio: "half" }', 'gateway.telemetry.sampleRatio: must be a number'],
    ['enabled that is not a boolean', '{ enabled: "yes" }', 'gateway.telemetry.enabled: must be a boolean value'],
    ['a blank serviceName', '{ serviceName: "   " }', 'gateway.telemetry.serviceName: must be a name with a visible character'],
    ['an unknown key', '{ exporter: "zipkin" }', 'gateway.telemetry.exporter'],
  ])('refuses %s with a message naming the key', async (_what, telemetry, message) => {
    await expect(startTestGateway(`{ gateway: { telemetry: ${telemetry} } }`)).rejects.toThrow(message);
  });
});
