import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ToolListChangedNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { SESSION_STORE, type SessionStore } from '../../src/modules/sessions/session-store.port';
import { FakeOpenAiServer, tokenText } from '../support/fake-openai-server';
import { startTestGateway, waitFor, type TestGateway } from '../support/gateway-harness';

/**
 * The MCP server at /mcp with the official SDK client over Streamable HTTP against a real gateway: the echo
 * agents, and an agent whose model is a fake OpenAI-compatible upstream that streams slowly. See docs/mcp.md.
 */
const ALL_KEY = 'mcp-all-0123456789abcdef';
const DESK_KEY = 'mcp-desk-0123456789abcdef';
/** The scrape that sees every name (an anonymous one sees key names as "other"). */
const METRICS_TOKEN = 'metrics-0123456789abcdef';

const config = (upstream: string, deskAgents = '["support", "gpt"]', rateLimitPerMinute = 1000) => `{
  models: { providers: { upstream: { api: "openai-chat", baseUrl: "${upstream}" } } },
  agents: { list: [
    { id: "main", default: true },
    { id: "support", description: "Answers customers." },
    { id: "gpt", model: "upstream/gpt-test" },
  ] },
  gateway: { metrics: { token: "${METRICS_TOKEN}" }, http: { endpoints: { mcp: {
    enabled: true,
    rateLimitPerMinute: ${rateLimitPerMinute},
    keys: [
      { name: "all", token: "\${ALL_KEY}", agents: ["*"] },
      { name: "desk", token: "\${DESK_KEY}", agents: ${deskAgents} },
    ],
  } } } },
}`;

const ACCEPT = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('MCP server at /mcp with the official SDK client (e2e)', () => {
  let gw: TestGateway;
  let upstream: FakeOpenAiServer;
  let store: SessionStore;
  const clients: Client[] = [];

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'clawgate-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    upstream = await new FakeOpenAiServer().start();
    gw = await startTestGateway(config(upstream.baseUrl), { env: { ALL_KEY, DESK_KEY } });
    store = gw.app.get(SESSION_STORE);
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await gw?.stop();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  it('lists the tools of the agents the key may reach, and an ask_<agent> call answers with the reply and its contextId', async () => {
    const client = await connect(DESK_KEY);
    expect(client.getServerVersion()?.name).toBe('clawgate');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['list_agents', 'ask_support', 'ask_gpt']);
    expect(tools[1].description).toContain('Answers customers.');

    const first = await client.callTool({ name: 'ask_support', arguments: { message: 'hello over mcp' } });
    expect(first.isError).toBeFalsy();
    expect(first.content).toEqual([{ type: 'text', text: '[support] hello over mcp' }]);
    const structured = first.structuredContent as { reply: string; contextId: string; agentId: string; runId: string };
    expect(structured).toMatchObject({ reply: '[support] hello over mcp', agentId: 'support' });

    // The contextId continues the conversation: the same session, both turns in its transcript.
    const second = await client.callTool({ name: 'ask_support', arguments: { message: 'and again', contextId: structured.contextId } });
    expect((second.structuredContent as { contextId: string }).contextId).toBe(structured.contextId);
    const sessionKey = `agent:support:mcp:direct:desk:${structured.contextId}`;
    const { lines } = await store.history(sessionKey);
    expect(lines.map((l) => [l.role, l.text])).toEqual([
      ['user', 'hello over mcp'],
      ['assistant', '[support] hello over mcp'],
      ['user', 'and again'],
      ['assistant', '[support] and again'],
    ]);
    expect(lines[0].meta).toMatchObject({ channel: 'mcp', key: 'desk', contextId: structured.contextId });
    expect((await store.get(sessionKey))?.deliveryContext).toEqual({ channel: 'mcp', accountId: 'desk', to: structured.contextId });

    const listed = await client.callTool({ name: 'list_agents', arguments: {} });
    expect(listed.structuredContent).toEqual({
      agents: [
        { id: 'support', description: 'Answers customers.', tool: 'ask_support' },
        { id: 'gpt', tool: 'ask_gpt' },
      ],
    });
  });

  it('an agent outside the key is not listed, and calling it is the same error as a tool that does not exist', async () => {
    const client = await connect(DESK_KEY);
    const refused = await client.callTool({ name: 'ask_main', arguments: { message: 'let me in' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(-32602);
    expect((refused as McpError).message).toContain('unknown tool "ask_main"');
    const unknown = (await client.callTool({ name: 'ask_nobody', arguments: { message: 'x' } }).catch((e: unknown) => e)) as McpError;
    expect(unknown.code).toBe(-32602);
    expect(unknown.message.replace('ask_nobody', 'ask_main')).toBe((refused as McpError).message);
    const other = (await client.callTool({ name: 'delete_everything' }).catch((e: unknown) => e)) as McpError;
    expect(other.message).toContain('unknown tool "delete_everything"');
    // Nothing ran for main.
    expect(upstream.requests).toHaveLength(0);
  });

  it('wrong argument types are refused naming the argument; the session keeps working', async () => {
    const client = await connect(ALL_KEY);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'arguments.message is required'],
      [{ message: 42 }, 'arguments.message must be a string, not a number'],
      [{ message: '   ' }, 'arguments.message is empty'],
      [{ message: 'hi', contextId: ['x'] }, 'arguments.contextId must be a string, not an array'],
      [{ message: 'hi', contextId: '../../etc' }, 'arguments.contextId must match'],
      [{ message: 'hi', extra: true }, 'arguments.extra: unknown argument'],
    ];
    for (const [args, message] of cases) {
      const err = (await client.callTool({ name: 'ask_main', arguments: args }).catch((e: unknown) => e)) as McpError;
      expect(err).toBeInstanceOf(McpError);
      expect(err.code).toBe(-32602);
      expect(err.message).toContain(message);
    }
    const ok = await client.callTool({ name: 'ask_main', arguments: { message: 'still here' } });
    expect(ok.content).toEqual([{ type: 'text', text: '[main] still here' }]);
  });

  it('sends progress notifications while the reply streams', async () => {
    upstream.script(upstream.tokens(6, 60));
    const client = await connect(ALL_KEY);
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'ask_gpt', arguments: { message: 'stream slowly' } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(result.content).toEqual([{ type: 'text', text: tokenText(6) }]);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((p) => p.message).join('')).toBe(tokenText(6));
    // progress counts the characters so far: it only grows, and ends at the reply's length.
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
    expect(progress.at(-1)?.progress).toBe(tokenText(6).length);
  });

  it('a cancelled call (notifications/cancelled) aborts the run: the run record says aborted by the MCP client', async () => {
    upstream.script(upstream.tokens(200, 50));
    const client = await connect(ALL_KEY);
    const controller = new AbortController();
    let progressed = 0;
    const call = client
      .callTool({ name: 'ask_gpt', arguments: { message: 'a long answer', contextId: 'cancel-me' } }, undefined, {
        signal: controller.signal,
        onprogress: () => {
          if (++progressed === 1) controller.abort('user pressed stop');
        },
      })
      .catch((e: unknown) => e);
    expect(await call).toBeDefined();
    const sessionKey = 'agent:gpt:mcp:direct:all:cancel-me';
    const ended = await waitFor('the aborted run line', async () => {
      const { lines } = await store.history(sessionKey);
      return lines.find((l) => l.role === 'system' && l.text.startsWith('run aborted'));
    });
    expect(ended.text).toContain('Run canceled by the MCP client');
    const run = await request(gw.url).get(`/admin/runs/${ended.runId}`).expect(200);
    expect(run.body.run).toMatchObject({ status: 'aborted', abortedBy: 'cancel', error: expect.stringContaining('MCP client') });
  });

  it('no key or a wrong key is 401 with a Bearer challenge, counted at the mcp edge; a session of another key is not found', async () => {
    const none = await request(gw.url).post('/mcp').set(ACCEPT).send(INITIALIZE).expect(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(none.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    await request(gw.url).post('/mcp').set(ACCEPT).set('authorization', 'Bearer wrong-key').send(INITIALIZE).expect(401);
    const refusedClient = new Client({ name: 'wrong', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), {
      requestInit: { headers: { Authorization: 'Bearer not-a-key' } },
    });
    await expect(refusedClient.connect(transport)).rejects.toThrow();
    const metrics = await request(gw.url).get('/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    expect(metrics.text).toMatch(/clawgate_auth_refusals_total\{edge="mcp",reason="missing"\} [1-9]/);
    expect(metrics.text).toMatch(/clawgate_auth_refusals_total\{edge="mcp",reason="invalid"\} [1-9]/);

    const opened = await request(gw.url).post('/mcp').set(ACCEPT).set('authorization', `Bearer ${ALL_KEY}`).send(INITIALIZE).expect(200);
    const sessionId = opened.headers['mcp-session-id'];
    expect(sessionId).toEqual(expect.any(String));
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const stolen = await request(gw.url)
      .post('/mcp')
      .set(ACCEPT)
      .set('authorization', `Bearer ${DESK_KEY}`)
      .set('mcp-session-id', sessionId)
      .set('mcp-protocol-version', '2025-11-25')
      .send(list)
      .expect(404);
    expect(stolen.body.error).toMatchObject({ code: -32001, message: expect.stringContaining('Session not found') });
    // DELETE ends the session; it is then unknown to its own key too.
    await request(gw.url).delete('/mcp').set('authorization', `Bearer ${ALL_KEY}`).set('mcp-session-id', sessionId).expect(200);
    await request(gw.url)
      .post('/mcp')
      .set(ACCEPT)
      .set('authorization', `Bearer ${ALL_KEY}`)
      .set('mcp-session-id', sessionId)
      .send(list)
      .expect(404);
  });

  it('malformed JSON-RPC: not JSON, not a JSON-RPC message, no session — each a clear error, and the server stays up', async () => {
    const auth = { authorization: `Bearer ${ALL_KEY}` };
    const notJson = await request(gw.url).post('/mcp').set(ACCEPT).set(auth).send('{"jsonrpc": "2.0", oops').expect(400);
    expect(notJson.body.error).toMatchObject({ code: -32700, message: expect.stringContaining('Parse error') });
    const notRpc = await request(gw.url).post('/mcp').set(ACCEPT).set(auth).send({ hello: 'world' }).expect(400);
    expect(notRpc.body.error.code).toBeLessThan(-32000);
    const noSession = await request(gw.url).post('/mcp').set(ACCEPT).set(auth).send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(noSession.status).toBe(400);
    expect(JSON.stringify(noSession.body)).toMatch(/not initialized|Mcp-Session-Id/);
    const getWithout = await request(gw.url).get('/mcp').set(auth).set('accept', 'text/event-stream').expect(400);
    expect(getWithout.body.error.message).toContain('Mcp-Session-Id header is required');
    await request(gw.url).put('/mcp').set(auth).expect(405);
    const client = await connect(ALL_KEY);
    expect((await client.listTools()).tools.length).toBe(4);
  });

  it('hot: narrowing a key changes its tools on the next request and tells open sessions (tools/list_changed)', async () => {
    const client = await connect(DESK_KEY);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_agents', 'ask_support', 'ask_gpt']);
    await gw.writeConfig(config(upstream.baseUrl, '["support"]'));
    await waitFor('the list_changed notification', async () => changed > 0);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_agents', 'ask_support']);
    await gw.writeConfig(config(upstream.baseUrl));
    await waitFor('the key widened again', async () => (await client.listTools()).tools.length === 3);
  });

  it('a key over its rate is refused with 429 and counted, before its body is read', async () => {
    await gw.writeConfig(config(upstream.baseUrl, undefined, 2));
    const initialize = () => request(gw.url).post('/mcp').set(ACCEPT).set('authorization', `Bearer ${DESK_KEY}`).send(INITIALIZE);
    const refused = await waitFor('a 429 once the rate of 2 a minute applies', async () => {
      const res = await initialize();
      return res.status === 429 && res;
    });
    expect(refused.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: expect.stringContaining('Rate limit reached for key "desk": 2 requests per minute') },
    });
    const metrics = await request(gw.url).get('/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    expect(metrics.text).toMatch(/clawgate_rate_limited_total\{channel="mcp",peer="desk"\} [1-9]/);
    await gw.writeConfig(config(upstream.baseUrl));
  });
});
