import request from 'supertest';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { FakeOpenAiServer, tokenText } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { eventsAsJson, postForSse } from '../support/sse-client';

/**
 * `stream: true` on POST /channels/http/messages: the reply as Server-Sent Events over real HTTP, from the echo
 * model (word by word, streamDelayMs apart) and from a fake OpenAI-compatible upstream that streams tokens.
 * See docs/channels.md#streaming-the-reply.
 */
const DESK = 'desk-stream-token-0123456789';
const GPT = 'gpt-stream-token-9876543210';
const OTHER = 'other-account-secret-4242';

const config = (openai: string) => `{
  models: { providers: {
    echo: { streamDelayMs: 30 },
    upstream: { api: "openai-chat", baseUrl: "${openai}" },
  } },
  agents: { list: [{ id: "main", default: true }, { id: "support" }, { id: "gpt", model: "upstream/gpt-test" }] },
  bindings: [
    { agentId: "support", match: { channel: "http", accountId: "desk" } },
    { agentId: "gpt", match: { channel: "http", accountId: "gpt" } },
  ],
  session: { dmScope: "per-channel-peer" },
  channels: { http: { enabled: true, accounts: { desk: { token: "${DESK}" }, gpt: { token: "${GPT}" }, other: { token: "${OTHER}" } } } },
}`;

describe('http channel: stream: true (e2e)', () => {
  let gw: TestGateway;
  let openai: FakeOpenAiServer;
  const url = () => `${gw.url}/channels/http/messages`;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    openai = await new FakeOpenAiServer().start();
    gw = await startTestGateway(config(openai.baseUrl));
  });
  afterAll(async () => {
    await gw?.stop();
    await openai?.close();
  });
  beforeEach(() => openai.reset());

  it('answers text/event-stream: run, the deltas word by word, done with the reply; the transcript has both lines', async () => {
    const answer = await postForSse(url(), { peer: { kind: 'direct', id: 'alice' }, text: 'stream this reply', stream: true }, auth(DESK));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers.get('cache-control')).toContain('no-cache');

    const events = eventsAsJson(answer.events);
    const sessionKey = 'agent:support:http:direct:alice';
    expect(events[0]).toEqual(['run', { runId: expect.any(String), sessionKey, agentId: 'support' }]);
    const runId = events[0][1].runId as string;
    expect(events.slice(1, -1)).toEqual([
      ['delta', { round: 0, text: '[support] ' }],
      ['delta', { round: 0, text: 'stream ' }],
      ['delta', { round: 0, text: 'this ' }],
      ['delta', { round: 0, text: 'reply' }],
    ]);
    expect(events.at(-1)).toEqual([
      'done',
      { runId, sessionKey, agentId: 'support', status: 'completed', reply: '[support] stream this reply' },
    ]);
    // streamDelayMs 30: the words came over time, not in one burst at the end.
    expect(answer.events[4].atMs - answer.events[1].atMs).toBeGreaterThanOrEqual(60);

    const store = gw.app.get<SessionStore>(SESSION_STORE);
    const lines = (await store.history(sessionKey)).lines.filter((l) => l.runId === runId);
    expect(lines.map((l) => [l.role, l.text])).toEqual([
      ['user', 'stream this reply'],
      ['assistant', '[support] stream this reply'],
    ]);
  });

  it('streams an upstream model token by token while it writes (5 tokens 120 ms apart)', async () => {
    openai.script(openai.tokens(5, 120));
    const answer = await postForSse(url(), { peer: { kind: 'direct', id: 'bob' }, text: 'count to five', stream: true }, auth(GPT));
    const events = eventsAsJson(answer.events);
    const deltas = events.filter(([name]) => name === 'delta').map(([, d]) => d.text as string);
    expect(deltas).toEqual(['tok1', ' tok2', ' tok3', ' tok4', ' tok5']);
    expect(events.at(-1)?.[1]).toMatchObject({ status: 'completed', reply: tokenText(5) });
    expect(openai.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    // The first token reached the client long before the last one was written.
    const firstDelta = answer.events.find((e) => e.event === 'delta')!;
    expect(answer.events.at(-1)!.atMs - firstDelta.atMs).toBeGreaterThanOrEqual(400);
  });

  it('streams every tool round; the rounds are numbered and done carries the last round as the reply', async () => {
    openai.script(openai.toolCall('session_status', {}, 'Checking.'), openai.textAfterToolResult('All fine.'));
    const answer = await postForSse(url(), { peer: { kind: 'direct', id: 'carol' }, text: 'status?', stream: true }, auth(GPT));
    expect(openai.violations).toEqual([]);
    expect(eventsAsJson(answer.events).slice(1)).toEqual([
      ['delta', { round: 0, text: 'Checking.' }],
      ['delta', { round: 1, text: 'All ' }],
      ['delta', { round: 1, text: 'fine.' }],
      ['done', expect.objectContaining({ status: 'completed', reply: 'All fine.' })],
    ]);
  });

  it('a failing model ends the stream with done status failed and the reason', async () => {
    openai.script(openai.streamError('Partly', 'upstream broke'));
    const answer = await postForSse(url(), { peer: { kind: 'direct', id: 'dan' }, text: 'hi', stream: true }, auth(GPT));
    const events = eventsAsJson(answer.events);
    expect(events.map(([name]) => name)).toEqual(['run', 'delta', 'done']);
    expect(events.at(-1)?.[1]).toMatchObject({ status: 'failed', error: 'model provider upstream failed while streaming: upstream broke' });
  });

  it('a client that leaves mid-stream does not stop the run: the reply still lands in the session', async () => {
    openai.script(openai.tokens(6, 80));
    const answer = await postForSse(url(), { peer: { kind: 'direct', id: 'erin' }, text: 'long one', stream: true }, auth(GPT), {
      stopAfter: 2,
    });
    const runId = eventsAsJson(answer.events)[0][1].runId as string;
    const run = await gw.app.get(AgentRunner).waitForRun(runId, 5000);
    expect(run).toMatchObject({ status: 'completed', reply: tokenText(6) });
  });

  it('masks configured secrets in the streamed events like in any response', async () => {
    const answer = await postForSse(
      url(),
      { peer: { kind: 'direct', id: 'fay' }, text: `the token is ${OTHER}`, stream: true },
      auth(DESK),
    );
    expect(answer.raw).not.toContain(OTHER);
    expect(eventsAsJson(answer.events).at(-1)?.[1].reply).toBe('[support] the token is [redacted]');
  });

  it('stream: false (and no stream) answers JSON as before', async () => {
    const res = await request(gw.url)
      .post('/channels/http/messages')
      .set(auth(DESK))
      .send({ peer: { kind: 'direct', id: 'gil' }, text: 'plain', stream: false })
      .expect(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).toMatchObject({ status: 'completed', reply: '[support] plain' });
  });

  it.each([
    ['a non-boolean stream', { stream: 'yes' }, 'stream must be a boolean value'],
    ['stream 1', { stream: 1 }, 'stream must be a boolean value'],
    [
      'stream: true with wait: false',
      { stream: true, wait: false },
      'stream: true cannot be combined with wait: false (a streamed reply is always waited for)',
    ],
  ])('answers %s with a 400 naming it, and no stream', async (_what, extra, message) => {
    const res = await request(gw.url)
      .post('/channels/http/messages')
      .set(auth(DESK))
      .send({ peer: { kind: 'direct', id: 'hal' }, text: 'hi', ...extra });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.errors).toEqual([{ message }]);
    expect(res.body.detail).toContain(message);
    // The process is still up and streams the next request.
    const next = await postForSse(url(), { peer: { kind: 'direct', id: 'hal' }, text: 'after', stream: true }, auth(DESK));
    expect(eventsAsJson(next.events).at(-1)?.[1]).toMatchObject({ status: 'completed' });
  });

  it('stream: true with wait: true is a plain streamed reply', async () => {
    const answer = await postForSse(url(), { peer: { kind: 'direct', id: 'ivy' }, text: 'ok', stream: true, wait: true }, auth(DESK));
    expect(eventsAsJson(answer.events).at(-1)?.[1]).toMatchObject({ status: 'completed', reply: '[support] ok' });
  });

  it('an unauthenticated streaming request gets the plain 401 problem, not a stream', async () => {
    const answer = await postForSse(
      url(),
      { peer: { kind: 'direct', id: 'x' }, text: 'hi', stream: true },
      auth('wrong-token-000000000000'),
    );
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.events).toEqual([]);
  });

  it('documents the event stream in the OpenAPI description', async () => {
    const docs = await request(gw.url).get('/docs-json').expect(200);
    const op = docs.body.paths['/channels/http/messages'].post;
    expect(Object.keys(op.responses['200'].content)).toEqual(['application/json', 'text/event-stream']);
    expect(op.responses['200'].content['text/event-stream'].example).toContain('event: done');
    expect(op.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/HttpInboundMessageDto');
    expect(docs.body.components.schemas.HttpInboundMessageDto.properties.stream).toMatchObject({ type: 'boolean', default: false });
  });
});
