import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { FakeOpenAiServer, tokenText } from '../support/fake-openai-server';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';
import { runCli, transpileCli, type CliBuild } from '../fixtures/cli-runner';

/**
 * `clawgate mcp serve --agent <id>` (the real CLI as a child process) with the official SDK client over stdio,
 * bridged to a running gateway's /mcp. See docs/mcp.md#stdio-clawgate-mcp-serve.
 */
const DESKTOP_KEY = 'mcp-desktop-0123456789abcdef';

const config = (upstream: string) => `{
  models: { providers: { upstream: { api: "openai-chat", baseUrl: "${upstream}" } } },
  agents: { list: [{ id: "main", default: true }, { id: "gpt", model: "upstream/gpt-test" }, { id: "secret" }] },
  gateway: { http: { endpoints: { mcp: {
    enabled: true,
    keys: [{ name: "desktop", token: "\${DESKTOP_KEY}", agents: ["main", "gpt"] }],
  } } } },
}`;

describe('clawgate mcp serve over stdio (e2e)', () => {
  let gw: TestGateway;
  let upstream: FakeOpenAiServer;
  let cli: CliBuild;
  const clients: Client[] = [];

  /** The CLI as a desktop client starts it: a command, its arguments and its environment. */
  async function launch(agent: string): Promise<{ client: Client; stderr: () => string; errors: Error[] }> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli.cliJs, 'mcp', 'serve', '--agent', agent, '--config', gw.configPath, '--state-dir', gw.stateDir],
      env: { PATH: process.env.PATH ?? '', HOME: gw.dir, DESKTOP_KEY, CLAWGATE_URL: gw.url },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'desktop', version: '1.0.0' });
    const errors: Error[] = [];
    // A line on stdout that is not a protocol message would surface here.
    client.onerror = (err) => errors.push(err);
    await client.connect(transport);
    clients.push(client);
    return { client, stderr: () => stderr, errors };
  }

  beforeAll(async () => {
    cli = await transpileCli();
    upstream = await new FakeOpenAiServer().start();
    gw = await startTestGateway(config(upstream.baseUrl), { env: { DESKTOP_KEY } });
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await gw?.stop();
    await upstream?.close();
    await cli?.remove();
  }, 60_000);

  it('offers the one agent, answers its call with progress, and writes nothing but protocol messages on stdout', async () => {
    upstream.script(upstream.tokens(5, 40));
    const { client, stderr, errors } = await launch('gpt');
    expect(client.getServerVersion()?.name).toBe('clawgate');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_agents', 'ask_gpt']);
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'ask_gpt', arguments: { message: 'from the desktop' } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(result.content).toEqual([{ type: 'text', text: tokenText(5) }]);
    expect(progress.map((p) => p.message).join('')).toBe(tokenText(5));
    // Narrowed to its agent: main is reachable by the key, but not through this server.
    const other = (await client.callTool({ name: 'ask_main', arguments: { message: 'x' } }).catch((e: unknown) => e)) as McpError;
    expect(other.code).toBe(-32602);
    expect(errors).toEqual([]);
    expect(stderr()).toContain('agent gpt through');
    expect(stderr()).not.toContain(DESKTOP_KEY);
  });

  it('refuses at the start, on stderr with exit 1, an agent the config does not have or its key may not reach', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: gw.dir, DESKTOP_KEY, CLAWGATE_URL: gw.url };
    const base = ['mcp', 'serve', '--config', gw.configPath, '--state-dir', gw.stateDir];
    const missing = await runCli(cli.cliJs, [...base, '--agent', 'nobody'], env);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('no agent "nobody"');
    const unreachable = await runCli(cli.cliJs, [...base, '--agent', 'secret'], env);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe('');
    expect(unreachable.stderr).toContain('no usable key that may reach agent "secret"');
  });
});
