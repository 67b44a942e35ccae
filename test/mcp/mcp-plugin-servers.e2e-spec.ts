// MCP servers plugins register (`api.registerMcpServer`, docs/plugins.md#mcp-servers): plugin directories made here
// register a Streamable HTTP server built with the SDK and the reference `mcp-server-everything` over stdio; the MCP
// client runs them as it runs `mcp.servers` (tools, grants, /admin/mcp with `plugin`, topology), refuses names the
// config or another plugin has, and drops them with their plugin.
import * as path from 'node:path';
import request from 'supertest';
import { GatewayMetrics } from '../../src/modules/metrics';
import { API_CLIENT } from '../support/admin-client';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { TestMcpHttpServer, type TestMcpTool } from '../support/mcp-http-server';
import { writePluginDir } from '../support/plugin-dirs';

const BIN = path.resolve(__dirname, '../../node_modules/.bin');
const PEER = 'mcp-plugin-e2e-peer-token-5d4c3b2a';
const ENV_SECRET = 'plugin-everything-secret-9f8e7d6c';

const tool = (name: string, answer: (args: Record<string, unknown>) => string): TestMcpTool => ({
  tool: { name, description: name, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
  call: async (args) => ({ content: [{ type: 'text', text: answer(args) }] }),
});

const manifest = (id: string, mcpServers: string[]) => ({ id, configSchema: { type: 'object' }, contracts: { mcpServers } });
/** A plugin whose `register` makes the one call given. */
const registering = (call: string) => `module.exports = { register(api) { ${call} } };\n`;

interface McpView {
  name: string;
  plugin?: string;
  state: string;
  pid?: number;
  tools: Array<{ policyName: string; functionName: string }>;
  agents: string[];
  config: Record<string, unknown>;
}

describe('MCP servers registered by plugins (e2e: real servers, a scripted model)', () => {
  let model: FakeOpenAiServer;
  let wiki: TestMcpHttpServer;
  let configured: TestMcpHttpServer;
  let gw: TestGateway;

  const config = (wikiToolsEnabled = true) => `{
    models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
    agents: { list: [
      { id: "main", default: true, model: "fake/gpt-test", tools: { allow: ["mcp:wiki:*", "mcp:everything:echo", "mcp:cfg:*"] } },
      { id: "other", model: "fake/gpt-test", tools: { allow: ["session_status"] } },
    ] },
    channels: { a2a: { enabled: true, rateLimitPerMinute: 0, replyTimeoutMs: 30000, peers: { mainpeer: { token: "${PEER}" } } } },
    mcp: { servers: { cfg: { url: "${configured.url}" } } },
    plugins: { load: { paths: ["./plugins"] }, entries: { "wiki-tools": { enabled: ${wikiToolsEnabled} } } },
  }`;

  const send = async (text: string) => {
    const res = await request(gw.url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${PEER}`)
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } },
      })
      .expect(200);
    return res.body.result.task as { artifacts: Array<{ parts: Array<{ text: string }> }> };
  };
  /** The tool result the model read (the scripted model echoes it as the reply), and the tools it was offered. */
  const toolResult = async (name: string, args: Record<string, unknown>) => {
    model.reset();
    model.script(
      model.toolCall(name, args),
      model.textFromToolResult((r) => r),
    );
    const task = await send(`call ${name}`);
    expect(model.violations).toEqual([]);
    const offered = (model.requests[0].body.tools ?? []).map((t: { function: { name: string } }) => t.function.name) as string[];
    return { result: JSON.parse(task.artifacts[0].parts[0].text) as Record<string, unknown>, offered };
  };
  const admin = (url: string) => request(gw.url).get(url).set(API_CLIENT).expect(200);
  const servers = async () => (await admin('/admin/mcp')).body.servers as McpView[];
  const plugin = async (id: string) => (await admin(`/admin/plugins/${id}`)).body;
  const reload = async (text: string) => {
    await gw.writeConfig(text);
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200);
  };

  beforeAll(async () => {
    model = await new FakeOpenAiServer().start();
    wiki = await new TestMcpHttpServer([
      tool('search', (args) => `wiki found ${String(args.q)}`),
      tool('dump', () => 'x'.repeat(3000)),
    ]).start();
    configured = await new TestMcpHttpServer([tool('ping', () => 'pong from the config server')]).start();
    const wikiCode = registering(`
      api.registerMcpServer('wiki', { url: ${JSON.stringify(wiki.url)}, maxOutputBytes: 1024 });
      api.registerMcpServer('everything', {
        command: ${JSON.stringify(`${BIN}/mcp-server-everything`)}, args: ['stdio'], env: { PLUGIN_SECRET: ${JSON.stringify(ENV_SECRET)} },
      });`);
    gw = await startTestGateway(config(), {
      beforeStart: async (stateDir) => {
        const plugins = path.join(path.dirname(stateDir), 'plugins');
        const write = (id: string, servers: string[], code: string) =>
          writePluginDir(path.join(plugins, id), { manifest: manifest(id, servers), files: { 'index.js': code } });
        await write('wiki-tools', ['wiki', 'everything'], wikiCode);
        // Found after wiki-tools (plugins load in the order found): the name is taken by then.
        await write('zz-copycat', ['wiki'], registering(`api.registerMcpServer('wiki', { url: 'http://127.0.0.1:9/mcp' });`));
        await write('squatter', ['cfg'], registering(`api.registerMcpServer('cfg', { command: 'node' });`));
        await write('undeclared', ['declared-one'], registering(`api.registerMcpServer('sneaky', { command: 'node' });`));
        await write('no-command', ['empty'], registering(`api.registerMcpServer('empty', {});`));
        await write('bad-url', ['bad'], registering(`api.registerMcpServer('bad', { url: 'not a url' });`));
        await write('bad-args', ['bad'], registering(`api.registerMcpServer('bad', { command: 'node', args: ['ok', 42] });`));
      },
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await wiki?.close();
    await configured?.close();
    await model?.close();
  });

  it("an agent granted mcp:wiki:* calls the plugin's HTTP server, and mcp:everything:echo its stdio server", async () => {
    const search = await toolResult('mcp__wiki__search', { q: 'gateways' });
    expect(search.result).toEqual({ status: 'ok', result: 'wiki found gateways' });
    // Granted one tool of everything, every tool of wiki and cfg: only those are offered.
    expect(search.offered.filter((n) => n.startsWith('mcp__')).sort()).toEqual([
      'mcp__cfg__ping',
      'mcp__everything__echo',
      'mcp__wiki__dump',
      'mcp__wiki__search',
    ]);

    const echo = await toolResult('mcp__everything__echo', { message: 'hi from a plugin server' });
    expect(echo.result).toEqual({ status: 'ok', result: 'Echo: hi from a plugin server' });

    // The plugin's settings apply (maxOutputBytes), and the note names where they were set.
    const dump = await toolResult('mcp__wiki__dump', {});
    expect(String(dump.result.result)).toHaveLength(1024);
    expect(dump.result.truncated).toBe(
      `1976 bytes of the result were cut: the model reads at most 1024 bytes (plugin wiki-tools's registerMcpServer("wiki"): maxOutputBytes)`,
    );
    // Its calls are series of their own, as a configured server's are.
    const metrics = await gw.app.get(GatewayMetrics).text();
    expect(metrics).toContain('clawgate_mcp_calls_total{server="wiki",tool="search",outcome="ok"} 1');
  });

  it('/admin/mcp lists them with their plugin, secrets redacted; /admin/plugins and the topology show them', async () => {
    const list = await servers();
    expect(list.map((s) => [s.name, s.plugin])).toEqual([
      ['cfg', undefined],
      ['wiki', 'wiki-tools'],
      ['everything', 'wiki-tools'],
    ]);
    const wikiView = list.find((s) => s.name === 'wiki')!;
    expect(wikiView).toMatchObject({ state: 'ready', agents: ['main'], config: { url: wiki.url, transport: 'streamable-http' } });
    expect(wikiView.tools.map((t) => [t.policyName, t.functionName])).toEqual([
      ['mcp:wiki:search', 'mcp__wiki__search'],
      ['mcp:wiki:dump', 'mcp__wiki__dump'],
    ]);
    expect(JSON.stringify(list)).not.toContain(ENV_SECRET);
    expect(list.find((s) => s.name === 'everything')!.config.env).toEqual({ PLUGIN_SECRET: '[redacted]' });
    expect((await admin('/admin/mcp/wiki')).body.plugin).toBe('wiki-tools');

    const record = await plugin('wiki-tools');
    expect(record.status).toBe('active');
    expect(record.declared.mcpServers).toEqual(['wiki', 'everything']);
    expect(record.registered.mcpServers).toEqual(['wiki', 'everything']);

    const topology = (await admin('/admin/topology')).body;
    expect(topology.nodes.find((n: { id: string }) => n.id === 'mcp:wiki')).toMatchObject({
      kind: 'mcp-server',
      server: 'wiki',
      plugin: 'wiki-tools',
      label: expect.stringContaining('plugin wiki-tools'),
    });
    expect(topology.edges).toContainEqual(
      expect.objectContaining({ kind: 'mcp', from: 'agent:main', to: 'mcp:wiki', grants: ['mcp:wiki:*'] }),
    );
  });

  it('refuses a name the config has (the config wins) or another plugin has, and one not declared; the config server still works', async () => {
    const squatter = await plugin('squatter');
    expect(squatter.status).toBe('failed');
    expect(squatter.errors).toEqual([
      'register(api) threw: registerMcpServer("cfg"): plugin squatter may not register MCP server "cfg": mcp.servers.cfg is configured, and the config wins (rename one of them)',
    ]);
    const copycat = await plugin('zz-copycat');
    expect(copycat.status).toBe('failed');
    expect(copycat.errors[0]).toBe(
      'register(api) threw: registerMcpServer("wiki"): plugin zz-copycat may not register MCP server "wiki": plugin wiki-tools has registered it',
    );
    const undeclared = await plugin('undeclared');
    expect(undeclared.errors[0]).toContain('registerMcpServer: mcpServer "sneaky" is not declared in the manifest\'s contracts.mcpServers');

    const list = await servers();
    expect(list.find((s) => s.name === 'cfg')).not.toHaveProperty('plugin');
    expect(list.find((s) => s.name === 'wiki')!.plugin).toBe('wiki-tools');
    expect(list.map((s) => s.name)).not.toContain('sneaky');
    expect((await toolResult('mcp__cfg__ping', {})).result).toEqual({ status: 'ok', result: 'pong from the config server' });
  });

  it('a config registerMcpServer could not take is refused naming the key', async () => {
    expect((await plugin('no-command')).errors[0]).toBe(
      'register(api) threw: registerMcpServer("empty"): url: is required for a streamable-http server (its MCP endpoint), or set command for a stdio server',
    );
    expect((await plugin('bad-url')).errors[0]).toMatch(/^register\(api\) threw: registerMcpServer\("bad"\): url: must be a URL address/);
    expect((await plugin('bad-args')).errors[0]).toMatch(/^register\(api\) threw: registerMcpServer\("bad"\): args: .*must be a string/);
  });

  it('disabling the plugin takes its servers, tools and processes away; enabling it again brings them back', async () => {
    const pid = (await servers()).find((s) => s.name === 'everything')!.pid!;
    expect(pid).toEqual(expect.any(Number));

    await reload(config(false));
    await waitFor('wiki-tools disabled', async () => (await plugin('wiki-tools')).status === 'disabled');
    expect((await servers()).map((s) => s.name)).toEqual(['cfg']);
    await waitFor('the stdio server stopped', async () => !processAlive(pid));

    const gone = await toolResult('mcp__wiki__search', { q: 'anything' });
    expect(gone.offered.filter((n) => n.startsWith('mcp__'))).toEqual(['mcp__cfg__ping']);
    expect(gone.result.status).toBe('error');
    expect(gone.result.error).toMatch(/^unknown tool "mcp__wiki__search"/);

    await reload(config(true));
    await waitFor('wiki-tools active', async () => (await plugin('wiki-tools')).status === 'active');
    expect((await servers()).map((s) => [s.name, s.plugin])).toEqual([
      ['cfg', undefined],
      ['wiki', 'wiki-tools'],
      ['everything', 'wiki-tools'],
    ]);
    expect((await toolResult('mcp__wiki__search', { q: 'again' })).result).toEqual({ status: 'ok', result: 'wiki found again' });
  });
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
