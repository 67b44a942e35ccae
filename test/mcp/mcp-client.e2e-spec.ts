// Agents use the tools of real MCP servers: the reference servers from npm over stdio, and one built with the SDK
// over Streamable HTTP in the test; a scripted OpenAI-compatible model decides the calls (docs/mcp.md).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { GatewayMetrics } from '../../src/modules/metrics';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { TestMcpHttpServer, type TestMcpTool } from '../support/mcp-http-server';

const BIN = path.resolve(__dirname, '../../node_modules/.bin');
const GARBAGE = path.resolve(__dirname, 'fixtures/garbage-mcp-server.cjs');
const PEERS = { main: 'mcp-e2e-peer-main-token-1f2e3d', limited: 'mcp-e2e-peer-limited-token-4c5b6a' };
const VIEWER = 'mcp-e2e-viewer-token-7a8b9c';
const REMOTE_SECRET = 'Bearer remote-mcp-secret-0a9b8c7d';
const ENV_SECRET = 'everything-env-secret-6e5d4c3b';

/** Tools of the Streamable HTTP server: a sum, and a slow one that waits until the client cancels it. */
const sum: TestMcpTool = {
  tool: {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
  call: async (args) => ({
    content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }],
    structuredContent: { sum: Number(args.a) + Number(args.b) },
  }),
};
let slowCalls = 0;
const slow: TestMcpTool = {
  tool: { name: 'slow', description: 'Takes its time', inputSchema: { type: 'object', properties: {} } },
  call: (_args, signal) => {
    slowCalls++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: 'finally' }] }), 60_000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve({ content: [{ type: 'text', text: 'stopped' }] });
      });
    });
  },
};
const big: TestMcpTool = {
  tool: { name: 'big', description: 'A large answer', inputSchema: { type: 'object', properties: {} } },
  call: async () => ({ content: [{ type: 'text', text: 'x'.repeat(10_000) }] }),
};

describe('MCP client (e2e: real MCP servers over stdio and Streamable HTTP, a scripted model)', () => {
  let model: FakeOpenAiServer;
  let remote: TestMcpHttpServer;
  let gw: TestGateway;
  let files: string;

  const config = (extraServers = '') => `{
    gateway: { admin: { tokens: [{ name: "viewer", token: "${VIEWER}", role: "viewer" }] } },
    models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
    agents: { list: [
      { id: "main", default: true, model: "fake/gpt-test", tools: { allow: ["session_status", "mcp:everything:*", "mcp:files:*", "mcp:remote:*", "mcp:garbage:*"] } },
      { id: "limited", model: "fake/gpt-test", tools: { allow: ["mcp:files:read_text_file"] } },
    ] },
    bindings: [{ agentId: "limited", match: { channel: "a2a", peer: { kind: "direct", id: "limitedpeer" } } }],
    channels: { a2a: { enabled: true, rateLimitPerMinute: 0, replyTimeoutMs: 30000, peers: {
      mainpeer: { token: "${PEERS.main}" }, limitedpeer: { token: "${PEERS.limited}" },
    } } },
    mcp: { servers: {
      everything: { command: "${BIN}/mcp-server-everything", args: ["stdio"], env: { CLAWGATE_TEST_SECRET: "${ENV_SECRET}" }, startup: "boot" },
      files: { command: "${BIN}/mcp-server-filesystem", args: ["${files}"] },
      remote: { url: "${remote.url}", headers: { Authorization: "${REMOTE_SECRET}" }, requestTimeoutMs: 1500, maxOutputBytes: 2048 },
      garbage: { command: "node", args: ["${GARBAGE}"], connectionTimeoutMs: 4000 },
      ${extraServers}
    } },
  }`;

  const rpc = (token: string, method: string, params: Record<string, unknown>) =>
    request(gw.url).post('/a2a/v1').set('Authorization', `Bearer ${token}`).send({ jsonrpc: '2.0', id: 1, method, params }).expect(200);
  const message = (text: string) => ({ message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } });
  const send = async (text: string, token = PEERS.main) => {
    const res = await rpc(token, 'SendMessage', message(text));
    return res.body.result?.task as { id: string; status: { state: string }; artifacts: Array<{ parts: Array<{ text: string }> }> };
  };
  /** The tool result the model read, as the reply (the model echoes it). */
  const toolResult = async (tool: string, args: Record<string, unknown>, token = PEERS.main) => {
    model.script(
      model.toolCall(tool, args),
      model.textFromToolResult((r) => r),
    );
    const task = await send(`call ${tool}`, token);
    expect(model.violations).toEqual([]);
    return JSON.parse(task.artifacts[0].parts[0].text) as Record<string, unknown>;
  };
  const offered = (index: number): string[] => model.requests[index].body.tools.map((t: { function: { name: string } }) => t.function.name);
  const admin = (url: string) => request(gw.url).get(url).set('Authorization', `Bearer ${VIEWER}`);

  beforeAll(async () => {
    files = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-mcp-files-')));
    await fs.writeFile(path.join(files, 'note.txt'), 'the note says 42\n');
    model = await new FakeOpenAiServer().start();
    remote = await new TestMcpHttpServer([sum, slow, big]).start();
    gw = await startTestGateway(config());
  });
  afterAll(async () => {
    await gw?.stop();
    await remote?.close();
    await model?.close();
    await fs.rm(files, { recursive: true, force: true });
  });
  beforeEach(() => model.reset());

  it('an agent calls tools of stdio and Streamable HTTP servers, and the results reach its reply', async () => {
    expect(await toolResult('mcp__everything__echo', { message: 'hello MCP' })).toEqual({ status: 'ok', result: 'Echo: hello MCP' });
    const offeredFirst = offered(0);
    expect(offeredFirst).toEqual(
      expect.arrayContaining(['session_status', 'mcp__everything__echo', 'mcp__files__read_text_file', 'mcp__remote__add']),
    );
    // The allow list names session_status: other built-in tools are not offered.
    expect(offeredFirst).not.toContain('sessions_list');

    model.reset();
    const read = await toolResult('mcp__files__read_text_file', { path: path.join(files, 'note.txt') });
    expect(read).toEqual({ status: 'ok', result: 'the note says 42\n' });

    model.reset();
    expect(await toolResult('mcp__remote__add', { a: 2, b: 40 })).toEqual({ status: 'ok', result: '42' });
    // The configured header went with the requests.
    expect(remote.authorizations).toContain(REMOTE_SECRET);

    // An image is a note with its type and size; the model never gets its bytes.
    model.reset();
    const image = await toolResult('mcp__everything__get-tiny-image', {});
    expect(image.status).toBe('ok');
    expect(image.result).toMatch(/\[image image\/png, \d+ bytes, not shown\]/);

    const metrics = await gw.app.get(GatewayMetrics).text();
    expect(metrics).toContain('clawgate_mcp_calls_total{server="remote",tool="add",outcome="ok"} 1');
    expect(metrics).toMatch(/clawgate_mcp_call_duration_seconds_count\{server="files",tool="read_text_file",outcome="ok"\} 1/);
  });

  it('the server gets only its own env; the secret of env and headers never shows in /admin/mcp', async () => {
    const env = await toolResult('mcp__everything__get-env', {});
    expect(String(env.result)).toContain('CLAWGATE_TEST_SECRET');
    // The gateway's own environment is not passed on: only the SDK's minimal set and the configured env.
    expect(String(env.result)).not.toContain('JEST_WORKER_ID');

    const res = await admin('/admin/mcp').expect(200);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(ENV_SECRET);
    expect(text).not.toContain('remote-mcp-secret');
    const remoteView = res.body.servers.find((s: { name: string }) => s.name === 'remote');
    expect(remoteView.config.headers.Authorization).toBe('[redacted]');
    expect(remoteView.tools.map((t: { policyName: string }) => t.policyName)).toEqual([
      'mcp:remote:add',
      'mcp:remote:slow',
      'mcp:remote:big',
    ]);
    const everything = res.body.servers.find((s: { name: string }) => s.name === 'everything');
    expect(everything).toMatchObject({ state: 'ready', transport: 'stdio', startup: 'boot' });
    expect(everything.pid).toEqual(expect.any(Number));
    // Which agents' tool policies grant each server's tools: main names every server, limited one tool of files.
    const agentsOf = Object.fromEntries(res.body.servers.map((s: { name: string; agents: string[] }) => [s.name, s.agents]));
    expect(agentsOf).toMatchObject({ everything: ['main'], files: ['main', 'limited'], remote: ['main'], garbage: ['main'] });
    const missing = await admin('/admin/mcp/everythin').expect(404);
    expect(missing.body.detail).toBe('no MCP server "everythin" in mcp.servers (did you mean "everything"?)');
  });

  it('an agent not allowed a tool never sees it, and cannot call it by name', async () => {
    model.script(
      model.toolCall('mcp__everything__echo', { message: 'sneaky' }),
      model.textFromToolResult((r) => r),
    );
    const task = await send('try echo', PEERS.limited);
    const names = offered(0);
    expect(names.filter((n) => n.startsWith('mcp__'))).toEqual(['mcp__files__read_text_file']);
    // Its allow list has only an mcp: entry: the built-in tools stay offered.
    expect(names).toContain('session_status');
    const result = JSON.parse(task.artifacts[0].parts[0].text);
    expect(result.status).toBe('error');
    expect(result.error).toMatch(/^unknown tool "mcp__everything__echo"/);
  });

  it('wrong argument types are refused before the server is called, naming the argument', async () => {
    expect(await toolResult('mcp__everything__get-sum', { a: 'one', b: 2 })).toEqual({
      status: 'error',
      error: 'invalid arguments for mcp__everything__get-sum: argument "a" must be number',
    });
  });

  it('a result larger than maxOutputBytes is cut with a note', async () => {
    const result = await toolResult('mcp__remote__big', {});
    expect(result.status).toBe('ok');
    expect(String(result.result)).toHaveLength(2048);
    expect(result.truncated).toBe(
      '7952 bytes of the result were cut: the model reads at most 2048 bytes (mcp.servers.remote. maxOutputBytes)',
    );
  });

  it('a slow tool is cut at its timeout, and the server is told the request is cancelled', async () => {
    const before = remote.cancelled.length;
    const result = await toolResult('mcp__remote__slow', {});
    expect(result).toEqual({
      status: 'timeout',
      error:
        'mcp__remote__slow failed: MCP server "remote" did not answer "slow" within 1500 ms (requestTimeoutMs); the call was cancelled',
    });
    await waitFor('notifications/cancelled at the server', async () => remote.cancelled.length > before);
    const metrics = await gw.app.get(GatewayMetrics).text();
    expect(metrics).toContain('clawgate_mcp_calls_total{server="remote",tool="slow",outcome="timeout"} 1');
  });

  it('a cancelled A2A task cancels the MCP request (notifications/cancelled)', async () => {
    const before = remote.cancelled.length;
    const callsBefore = slowCalls;
    // A long timeout for this call: only the cancel may end it.
    await gw.writeConfig(config().replace('requestTimeoutMs: 1500', 'requestTimeoutMs: 60000'));
    // The changed server is a new connection, started (lazily) by the next run.
    await waitFor(
      'the remote server with a long timeout',
      async () => (await admin('/admin/mcp/remote')).body.config?.requestTimeoutMs === 60000,
      10_000,
    );
    model.script(model.toolCall('mcp__remote__slow', {}), model.text('never read'));
    const started = (await rpc(PEERS.main, 'SendMessage', { ...message('slow please'), configuration: { returnImmediately: true } })).body
      .result.task;
    await waitFor('the slow call at the server', async () => slowCalls > callsBefore, 10_000);
    const canceled = (await rpc(PEERS.main, 'CancelTask', { id: started.id })).body.result;
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await waitFor('notifications/cancelled at the server', async () => remote.cancelled.length > before);
    await gw.writeConfig(config());
    await waitFor(
      'the remote server back to its short timeout',
      async () => (await admin('/admin/mcp/remote')).body.config?.requestTimeoutMs === 1500,
      10_000,
    );
  });

  it('a server killed mid-call gives a clear tool error, and is back for the next run', async () => {
    const { pid } = (await admin('/admin/mcp/everything').expect(200)).body;
    model.script(
      model.toolCall('mcp__everything__trigger-long-running-operation', { duration: 30, steps: 30 }),
      model.textFromToolResult((r) => r),
    );
    const pending = send('long work');
    // The call is running at the server when it dies (the first run also waits for the lazy servers to start).
    await waitFor('the call running at the server', async () => (await admin('/admin/mcp/everything')).body.callsInFlight === 1, 30_000);
    process.kill(pid, 'SIGKILL');
    const task = await pending;
    const result = JSON.parse(task.artifacts[0].parts[0].text);
    expect(result.status).toBe('error');
    expect(result.error).toMatch(
      /^mcp__everything__trigger-long-running-operation failed: MCP server "everything" stopped during the call of "trigger-long-running-operation" \(the server stopped.*\); it is restarted for the next calls$/,
    );

    model.reset();
    expect(await toolResult('mcp__everything__echo', { message: 'back' })).toEqual({ status: 'ok', result: 'Echo: back' });
    const after = (await admin('/admin/mcp/everything').expect(200)).body;
    expect(after.state).toBe('ready');
    expect(after.pid).not.toBe(pid);
    expect(after.lastError).toMatch(/the server stopped/);
  });

  it('a server writing garbage on stdout fails with a clear error; the gateway and the other servers go on', async () => {
    // Any run of main starts the lazy garbage server; it never completes the handshake.
    model.script(model.text('fine'));
    expect((await send('hello')).status.state).toBe('TASK_STATE_COMPLETED');
    const garbage = await waitFor('the garbage server to fail', async () => {
      const body = (await admin('/admin/mcp/garbage').expect(200)).body;
      return body.state === 'failed' && body;
    });
    expect(garbage.lastError).toMatch(
      /did not complete the MCP handshake within 4000 ms \(connectionTimeoutMs\); it sent what is not MCP: /,
    );
    expect(garbage.tools).toEqual([]);
    model.reset();
    expect(await toolResult('mcp__remote__add', { a: 1, b: 1 })).toEqual({ status: 'ok', result: '2' });
  });

  it('a changed tool list (notifications/tools/list_changed) is followed; servers are added and removed by a reload', async () => {
    await remote.setTools([sum, slow, big, { ...sum, tool: { ...sum.tool, name: 'plus' } }]);
    await waitFor('the new remote tool', async () =>
      (await admin('/admin/mcp/remote')).body.tools?.some((t: { name: string }) => t.name === 'plus'),
    );
    await gw.writeConfig(config(`extra: { command: "${BIN}/mcp-server-everything", args: ["stdio"], startup: "boot" },`));
    await waitFor('the added server ready', async () => (await admin('/admin/mcp/extra')).body.state === 'ready', 15_000);
    model.reset();
    expect(await toolResult('mcp__everything__echo', { message: 'still here' })).toEqual({ status: 'ok', result: 'Echo: still here' });
    await gw.writeConfig(config());
    await waitFor('the server removed', async () => (await admin('/admin/mcp/extra')).status === 404, 10_000);
    await remote.setTools([sum, slow, big]);
  });
});
