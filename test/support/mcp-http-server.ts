import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

/** A tool of the test server: its listing and what a call answers (`signal`: the client's cancel or a closed session). */
export interface TestMcpTool {
  tool: Tool;
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

/**
 * A real MCP server over Streamable HTTP (the SDK's `Server` and `StreamableHTTPServerTransport`, sessions by
 * `Mcp-Session-Id`) on a loopback port, with the tools a test gives it. It records the `Authorization` header of each
 * request and every `notifications/cancelled` it receives, and can change its tool list (`notifications/tools/list_changed`).
 */
export class TestMcpHttpServer {
  readonly authorizations: Array<string | undefined> = [];
  readonly cancelled: Array<{ requestId: unknown; reason?: string }> = [];
  private readonly sessions = new Map<string, { server: Server; transport: StreamableHTTPServerTransport }>();
  private readonly httpServer = http.createServer((req, res) => void this.handle(req, res));
  private tools: TestMcpTool[];

  constructor(tools: TestMcpTool[]) {
    this.tools = tools;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.httpServer.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.httpServer.address() as AddressInfo).port}/mcp`;
  }

  /** Replaces the tool list and tells every connected client it changed. */
  async setTools(tools: TestMcpTool[]): Promise<void> {
    this.tools = tools;
    await Promise.all([...this.sessions.values()].map((s) => s.server.sendToolListChanged()));
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
    this.httpServer.closeAllConnections();
    await new Promise<void>((resolve) => this.httpServer.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.authorizations.push(req.headers.authorization);
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    if (existing) return existing.transport.handleRequest(req, res);
    const server = this.newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, { server, transport }),
    });
    await server.connect(transport);
    // Records each notifications/cancelled as it arrives on the wire, then lets the SDK act on it (abort the handler).
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message && message.method === 'notifications/cancelled') {
        const params = message.params as { requestId: unknown; reason?: string };
        this.cancelled.push({ requestId: params.requestId, reason: params.reason });
      }
      deliver?.(message, extra);
    };
    await transport.handleRequest(req, res);
  }

  private newServer(): Server {
    const server = new Server({ name: 'test-http', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools.map((t) => t.tool) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const tool = this.tools.find((t) => t.tool.name === request.params.name);
      if (!tool) return { content: [{ type: 'text', text: `unknown tool ${request.params.name}` }], isError: true };
      return tool.call(request.params.arguments ?? {}, extra.signal);
    });
    return server;
  }
}
