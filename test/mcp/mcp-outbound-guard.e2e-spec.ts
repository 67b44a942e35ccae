// MCP servers over HTTP are reached through the outbound guard (docs/mcp.md#http-servers-and-the-outbound-guard):
// a name resolving to a non-public address is refused, a URL naming the host literally is the operator's choice.
// Real Streamable HTTP server, real config pipeline and hot reload; the transport's test resolver points a
// public-looking name at loopback.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { Tracing } from '../../src/common/telemetry/tracing';
import { ConfigStore } from '../../src/modules/config/config.store';
import { McpClients } from '../../src/modules/mcp';
import { GatewayMetrics } from '../../src/modules/metrics';
import { GuardedTransport, type OutboundAuditEntry } from '../../src/modules/outbound/guarded-transport';
import { ToolRegistry } from '../../src/modules/runtime';
import { waitFor } from '../support/gateway-harness';
import { TestMcpHttpServer } from '../support/mcp-http-server';

const add = {
  tool: {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: { type: 'object' as const, properties: { a: { type: 'number' }, b: { type: 'number' } } },
  },
  call: async (args: Record<string, unknown>) => ({ content: [{ type: 'text' as const, text: String(Number(args.a) + Number(args.b)) }] }),
};

describe('MCP HTTP servers through the outbound guard (e2e)', () => {
  let dir: string;
  let store: ConfigStore;
  let server: TestMcpHttpServer;
  let transport: GuardedTransport;
  let clients: McpClients;
  let registry: ToolRegistry;
  let audit: OutboundAuditEntry[];

  const port = () => new URL(server.url).port;
  const config = () => `{
    agents: { list: [{ id: "main", model: "echo/default", tools: { allow: ["mcp:*"] } }] },
    mcp: { servers: {
      literal: { url: "http://127.0.0.1:${port()}/mcp", startup: "boot" },
      local: { url: "http://localhost:${port()}/mcp", startup: "boot" },
      named: { url: "http://mcp.example.test:${port()}/mcp", startup: "boot" },
    } },
  }`;
  const view = (name: string) => clients.list().find((s) => s.name === name)!;
  const call = (name: string, args: Record<string, unknown>) =>
    registry.call({ tools: { allow: ['mcp:*'], deny: [] } }, name, args, {
      agentId: 'main',
      sessionKey: 'agent:main:test',
      signal: new AbortController().signal,
    });

  beforeAll(async () => {
    Logger.overrideLogger(false);
    server = await new TestMcpHttpServer([add]).start();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-mcp-guard-'));
    await fs.writeFile(path.join(dir, 'openclaw.json'), config());
    store = new ConfigStore({ configPath: path.join(dir, 'openclaw.json'), stateDir: path.join(dir, 'state'), env: { HOME: dir } });
    await store.init();
    audit = [];
    transport = new GuardedTransport({
      audit: (e) => audit.push(e),
      resolver: async (host) => (['mcp.example.test', 'localhost'].includes(host) ? [{ address: '127.0.0.1', family: 4 }] : []),
    });
    registry = new ToolRegistry();
    clients = new McpClients(store, registry, new GatewayMetrics(), new Tracing(), transport);
    clients.onModuleInit();
  });
  afterAll(async () => {
    await clients.onApplicationShutdown();
    await transport.onModuleDestroy();
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('a URL naming the host literally (an IP address or localhost) is allowed, and its requests are audited as mcp', async () => {
    await waitFor('literal and local ready', async () => view('literal').state === 'ready' && view('local').state === 'ready');
    expect(await call('mcp__literal__add', { a: 2, b: 40 })).toEqual({ status: 'ok', result: '42' });
    expect(await call('mcp__local__add', { a: 1, b: 1 })).toEqual({ status: 'ok', result: '2' });
    expect(audit).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'mcp', host: `127.0.0.1:${port()}`, status: 200 })]));
  });

  it('a name resolving to a loopback address is refused: a clear error in the status, and none of its tools is offered', async () => {
    const named = await waitFor('named failed', async () => (view('named').state === 'failed' ? view('named') : undefined));
    expect(named.lastError).toBe(
      `could not connect: mcp.servers.named.url: mcp.example.test resolves to a loopback address (127.0.0.1); ` +
        'outbound calls to non-public addresses need the URL to name the host literally (an IP address or localhost)',
    );
    expect(named.tools).toEqual([]);
    expect(registry.names().filter((n) => n.startsWith('mcp__named__'))).toEqual([]);
    expect(audit).toEqual(
      expect.arrayContaining([
        { kind: 'mcp', host: `mcp.example.test:${port()}`, status: 'refused_address', durationMs: expect.any(Number) },
      ]),
    );
    // A run is not offered its tools; a model calling one by name reads that it does not exist.
    expect(await call('mcp__named__add', { a: 1, b: 2 })).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/^unknown tool "mcp__named__add"/),
    });
  });
});
