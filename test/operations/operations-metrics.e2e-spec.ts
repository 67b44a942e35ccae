import request from 'supertest';
import { GatewayMetrics } from '../../src/modules/metrics';
import { agentBrain } from '../support/agent-brain';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { FakeA2aPeer } from '../support/fake-a2a-peer';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * GET /metrics after a scripted day of traffic (docs/operations.md#metrics): an http channel message whose agent
 * asks another agent with sessions_send, an A2A SendMessage and GetTask, a request over the peer's rate limit, a
 * message to an agent whose model server fails, and an operator's send to an outbound peer. Real HTTP, a real state
 * dir; the models are fake OpenAI servers, the outbound peer a scripted A2A server.
 */

const DESK = 'desk-token-metrics-0001';
const PARTNER = 'partner-token-metrics-001';
/** The scrape token: this scenario reads every name (docs/operations.md#who-may-scrape). */
const SCRAPER = 'scrape-token-metrics-0001';

const config = (fakeUrl: string, brokenUrl: string, remoteUrl: string) => `{
  models: { providers: {
    fake: { api: "openai-chat", baseUrl: "${fakeUrl}" },
    broken: { api: "openai-chat", baseUrl: "${brokenUrl}" },
  } },
  agents: { list: [
    { id: "support", model: "fake/gpt" },
    { id: "expert", model: "fake/gpt" },
    { id: "flaky", model: "broken/gpt" },
  ] },
  bindings: [
    { agentId: "support", match: { channel: "http", accountId: "desk" } },
    { agentId: "flaky", match: { channel: "http", accountId: "desk", peer: { kind: "direct", id: "flaky-user" } } },
    { agentId: "expert", match: { channel: "a2a" } },
  ],
  tools: { agentToAgent: { enabled: true, allow: ["*"] }, sessions: { visibility: "all" } },
  session: { agentToAgent: { maxPingPongTurns: 0 } },
  gateway: { metrics: { token: "${SCRAPER}" } },
  channels: {
    http: { enabled: true, accounts: { desk: { token: "${DESK}" } } },
    a2a: { enabled: true, rateLimitPerMinute: 3, peers: {
      partner: { token: "${PARTNER}" },
      remote: { token: "remote-token-metrics-0001", url: "${remoteUrl}", outboundToken: "to-remote-token-metrics-01" },
    } },
  },
}`;

/** The value of one series in the Prometheus text, undefined when it is absent. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.startsWith(`${name}{`) ? line.slice(name.length + 1, line.indexOf('}')) : '';
    const have = labelText ? labelText.split(',') : [];
    if (wanted.length === have.length && wanted.every((w) => have.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('metrics after a scripted scenario (e2e)', () => {
  let gw: TestGateway;
  let text: string;
  const fake = new FakeOpenAiServer();
  const broken = new FakeOpenAiServer();
  const remote = new FakeA2aPeer();

  const httpMessage = (peer: { kind: string; id: string }, body: string) =>
    request(gw.url).post('/channels/http/messages').set('Authorization', `Bearer ${DESK}`).send({ peer, text: body });

  beforeAll(async () => {
    await Promise.all([fake.start(), broken.start(), remote.start()]);
    fake.always(
      agentBrain(fake, ({ agentId, step, toolResult }) => {
        if (agentId === 'support' && !toolResult) {
          return { tool: 'sessions_send', args: { sessionKey: 'agent:expert:main', message: 'what is the status?', timeoutSeconds: 20 } };
        }
        if (agentId === 'support') return { text: 'the expert says all is well' };
        if (step === 'announce') return { text: 'ANNOUNCE_SKIP' };
        return { text: `expert: ${step}` };
      }),
    );
    broken.always(broken.error(500, 'the model server is down'));
    gw = await startTestGateway(config(fake.baseUrl, broken.baseUrl, remote.url));

    const asked = await httpMessage({ kind: 'direct', id: 'alice' }, 'is everything fine?');
    expect(asked.body).toMatchObject({ status: 'completed', reply: 'the expert says all is well' });
    const failed = await httpMessage({ kind: 'direct', id: 'flaky-user' }, 'hello?');
    expect(failed.body).toMatchObject({ status: 'failed' });

    const sent = await a2aRpc(gw.url, PARTNER, 'SendMessage', userMessage('status over A2A'));
    expect(sent.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const got = await a2aRpc(gw.url, PARTNER, 'GetTask', { id: sent.result.task.id });
    expect(got.result.id).toBe(sent.result.task.id);
    expect((await a2aRpc(gw.url, PARTNER, 'GetTask', { id: 'no-such-task' })).error?.code).toBe(-32001);
    expect((await a2aRpc(gw.url, PARTNER, 'GetTask', { id: 'no-such-task' })).error).toEqual({
      code: -32000,
      message: 'Peer is rate limited',
    });

    const outbound = await request(gw.url).post('/admin/a2a/peers/remote/send').send({ text: 'hello remote', wait: true });
    expect(outbound.status).toBe(200);

    // The exchange's announce runs after the reply: wait until every run has ended before reading the counters.
    text = await waitFor('the announce run to end', async () => {
      const body = (await request(gw.url).get('/metrics').set('Authorization', `Bearer ${SCRAPER}`).expect(200)).text;
      return (series(body, 'clawgate_runs_total', { agent: 'expert', outcome: 'completed' }) ?? 0) >= 3 ? body : undefined;
    });
  });

  afterAll(async () => {
    await gw?.stop();
    await Promise.all([fake.close(), broken.close(), remote.stop()]);
  });

  it('counts runs by agent and outcome, and times them by provider', () => {
    // support: the http message; expert: round one of sessions_send, its announce, the A2A message; flaky: the failure.
    expect(series(text, 'clawgate_runs_total', { agent: 'support', outcome: 'completed' })).toBe(1);
    expect(series(text, 'clawgate_runs_total', { agent: 'expert', outcome: 'completed' })).toBe(3);
    expect(series(text, 'clawgate_runs_total', { agent: 'flaky', outcome: 'failed' })).toBe(1);
    expect(series(text, 'clawgate_run_duration_seconds_count', { provider: 'fake' })).toBe(4);
    expect(series(text, 'clawgate_run_duration_seconds_count', { provider: 'broken' })).toBe(1);
  });

  it('times model calls by provider and outcome: the failed one is an error', () => {
    // support calls its model twice (the tool call, then the answer); each expert run once.
    expect(series(text, 'clawgate_model_call_duration_seconds_count', { provider: 'fake', outcome: 'ok' })).toBe(5);
    expect(series(text, 'clawgate_model_call_duration_seconds_count', { provider: 'broken', outcome: 'error' })).toBe(1);
    expect(series(text, 'clawgate_model_call_duration_seconds_count', { provider: 'broken', outcome: 'ok' })).toBeUndefined();
  });

  it('counts tool calls and sessions_send by outcome and hops', () => {
    expect(series(text, 'clawgate_tool_calls_total', { tool: 'sessions_send', outcome: 'ok' })).toBe(1);
    expect(series(text, 'clawgate_sessions_send_total', { outcome: 'ok', hops: '1' })).toBe(1);
  });

  it('counts A2A requests by method, binding and code, tasks by state, and the rate-limited request', () => {
    const a2a = (method: string, code: string) =>
      series(text, 'clawgate_a2a_request_duration_seconds_count', { method, binding: 'jsonrpc', code });
    expect(a2a('SendMessage', 'OK')).toBe(1);
    expect(a2a('GetTask', 'OK')).toBe(1);
    expect(a2a('GetTask', 'TASK_NOT_FOUND')).toBe(1);
    expect(series(text, 'clawgate_a2a_tasks_total', { state: 'completed' })).toBe(1);
    expect(series(text, 'clawgate_rate_limited_total', { channel: 'a2a', peer: 'partner' })).toBe(1);
  });

  it('counts outbound calls by peer, method and outcome', () => {
    expect(series(text, 'clawgate_outbound_call_duration_seconds_count', { peer: 'remote', method: 'SendMessage', outcome: 'ok' })).toBe(1);
    expect(series(text, 'clawgate_outbound_call_duration_seconds_count', { peer: 'remote', method: 'GetTask', outcome: 'ok' })).toBe(1);
  });

  it('reports the event-loop delay and the config series', () => {
    expect(series(text, 'clawgate_nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(series(text, 'clawgate_config_reload_total', { result: 'rejected' })).toBe(0);
  });
});

/**
 * Who may scrape (docs/operations.md#who-may-scrape): without a token anyone, but names the public Agent Card does not
 * show are `other`; with `gateway.metrics.token` only its holder, who sees every name. The series are recorded through
 * the gateway's own GatewayMetrics (the scenario above covers how traffic records them) and read over HTTP.
 */
describe('who may scrape /metrics (e2e)', () => {
  const HIDDEN = ['payroll-private', 'hr-private', 'acme-partner', 'finance-bot', 'acme-internal-llm'];
  const configWith = (metrics: string) => `{
    models: { providers: { "acme-internal-llm": { api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1" } } },
    agents: { list: [{ id: "front-desk", model: "acme-internal-llm/m" }, { id: "payroll-private" }, { id: "hr-private" }] },
    channels: { a2a: { enabled: true, exposeAgents: ["front-desk"], peers: {
      "acme-partner": { token: "partner-token-scrape-0001", url: "http://127.0.0.1:9/a2a", outboundToken: "to-partner-scrape-00001" },
    } } },
    gateway: {
      http: { endpoints: { chatCompletions: { enabled: true, keys: [{ name: "finance-bot", token: "key-token-scrape-000001", agents: ["*"] }] } } },
      ${metrics}
    },
  }`;
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway(configWith(''));
    const metrics = gw.app.get(GatewayMetrics);
    metrics.runEnded('front-desk', 'acme-internal-llm', 'completed', 1);
    metrics.runEnded('payroll-private', 'acme-internal-llm', 'completed', 2);
    metrics.runEnded('hr-private', 'acme-internal-llm', 'completed', 3);
    metrics.runEnded('hr-private', 'acme-internal-llm', 'failed', 4);
    metrics.rateLimited('a2a', 'acme-partner');
    metrics.rateLimited('openai', 'finance-bot');
    metrics.outboundCall('acme-partner', 'SendMessage', 'ok', 0.2);
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('without a token answers anyone, naming only what the public Agent Card shows and adding up the rest as other', async () => {
    const res = await request(gw.url).get('/metrics').expect(200);
    const text = res.text;
    for (const name of HIDDEN) expect(text).not.toContain(name);
    expect(series(text, 'clawgate_runs_total', { agent: 'front-desk', outcome: 'completed' })).toBe(1);
    expect(series(text, 'clawgate_runs_total', { agent: 'other', outcome: 'completed' })).toBe(2);
    expect(series(text, 'clawgate_runs_total', { agent: 'other', outcome: 'failed' })).toBe(1);
    expect(series(text, 'clawgate_run_duration_seconds_count', { provider: 'other' })).toBe(4);
    expect(series(text, 'clawgate_run_duration_seconds_sum', { provider: 'other' })).toBe(10);
    expect(series(text, 'clawgate_run_duration_seconds_bucket', { provider: 'other', le: '+Inf' })).toBe(4);
    expect(series(text, 'clawgate_rate_limited_total', { channel: 'a2a', peer: 'other' })).toBe(1);
    expect(series(text, 'clawgate_rate_limited_total', { channel: 'openai', peer: 'other' })).toBe(1);
    expect(series(text, 'clawgate_outbound_call_duration_seconds_count', { peer: 'other', method: 'SendMessage', outcome: 'ok' })).toBe(1);
    // One line per series: the merged ones are added up, not repeated.
    expect(text.split('\n').filter((line) => line.startsWith('clawgate_runs_total{agent="other",outcome="completed"}'))).toHaveLength(1);
    // What names nothing passes unchanged: the process series, the config's.
    expect(series(text, 'clawgate_nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(series(text, 'clawgate_config_reload_total', { result: 'rejected' })).toBe(0);
  });

  it('with gateway.metrics.token answers only its holder, with every name; an unset ${VAR} closes it', async () => {
    const token = 'scrape-token-access-00001';
    await gw.writeConfig(configWith(`metrics: { token: "${token}" },`));
    const refused = await waitFor('the token to apply', async () => {
      const res = await request(gw.url).get('/metrics');
      return res.status === 401 ? res : undefined;
    });
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="clawgate metrics"');
    expect(refused.body.detail).toContain('gateway.metrics.token');
    expect(refused.text).not.toContain(token);
    await request(gw.url).get('/metrics').set('Authorization', 'Bearer not-the-scrape-token').expect(401);

    const full = (await request(gw.url).get('/metrics').set('Authorization', `Bearer ${token}`).expect(200)).text;
    expect(series(full, 'clawgate_runs_total', { agent: 'payroll-private', outcome: 'completed' })).toBe(1);
    expect(series(full, 'clawgate_runs_total', { agent: 'hr-private', outcome: 'failed' })).toBe(1);
    expect(series(full, 'clawgate_run_duration_seconds_count', { provider: 'acme-internal-llm' })).toBe(4);
    expect(series(full, 'clawgate_rate_limited_total', { channel: 'a2a', peer: 'acme-partner' })).toBe(1);
    expect(series(full, 'clawgate_rate_limited_total', { channel: 'openai', peer: 'finance-bot' })).toBe(1);

    await gw.writeConfig(configWith('metrics: { token: "${SCRAPE_TOKEN_NOT_SET}" },'));
    await waitFor('the unset token to apply', async () => {
      const res = await request(gw.url).get('/metrics').set('Authorization', `Bearer ${token}`);
      return res.status === 401;
    });
    await request(gw.url).get('/metrics').expect(401);
  });
});
