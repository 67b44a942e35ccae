import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Request, RequestHandler, Response } from 'express';
import { isCanonicalAgentId } from '../../common/agent-id';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { readLimitedBody } from '../../common/http/limited-body';
import { jsonDepthExceeds } from '../../common/json-depth';
import { EndpointKeyGate } from '../endpoint-keys';
import { ConfigStore, type RuntimeSnapshot } from '../config';
import { AuthRefusals, GatewayMetrics } from '../metrics';
import { toolsFor } from './agent-tools';
import { AskAgentService } from './ask-agent.service';
import { JsonParseError, writeMcpHttpError } from './mcp-errors';
import { McpSessions, type McpSession } from './mcp-sessions';
import { agentsForCaller, authInfoFor, createSessionServer, type McpCaller } from './mcp-session-server';

/** Where the MCP server answers (docs/mcp.md#the-mcp-server). */
export const MCP_ENDPOINT_PATH = '/mcp';
/** The header that narrows a request to one agent (`clawgate mcp serve --agent` sends it). */
export const MCP_AGENT_HEADER = 'x-openclaw-agent-id';
/** Largest JSON-RPC body, as for the OpenAI-compatible endpoint (a message is at most 64 Ki characters). */
export const MAX_MCP_REQUEST_BYTES = 1024 * 1024;
const MAX_BODY_DEPTH = 64;
const CHALLENGE = 'Bearer realm="clawgate mcp"';
const GATEWAY_VERSION = process.env.npm_package_version ?? '0.1.0';

/**
 * `/mcp`: the gateway's agents as the tools of an MCP server, over Streamable HTTP (the SDK's transport: POST
 * JSON-RPC answered as JSON or an SSE stream, `Mcp-Session-Id`, a GET stream for the server's notifications,
 * DELETE to end a session). Mounted ahead of the body parsers: the endpoint must be on (404), the key valid (401)
 * and within its rate (429) before a byte of the body is read; then at most 1 MiB of JSON (413/400). The key model
 * is the OpenAI-compatible endpoint's (`EndpointKeyGate`).
 */
@Injectable()
export class McpEndpoint implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('mcp.server');
  private readonly gate: EndpointKeyGate;
  private readonly sessions = new McpSessions();
  private unsubscribe?: () => void;

  constructor(
    private readonly config: ConfigStore,
    private readonly asks: AskAgentService,
    metrics: GatewayMetrics,
    refusals: AuthRefusals,
  ) {
    this.gate = new EndpointKeyGate('mcp', (s) => s.config.gateway.http.endpoints.mcp, { config, metrics, refusals });
  }

  onModuleInit(): void {
    this.gate.start();
    this.unsubscribe = this.config.onApplied((_prev, next) => this.followConfig(next));
  }

  async onApplicationShutdown(): Promise<void> {
    this.unsubscribe?.();
    this.gate.stop();
    await Promise.all(this.sessions.all().map((s) => this.end(s)));
  }

  readonly handler: RequestHandler = (req, res) => {
    this.serve(req, res).catch((err: unknown) => this.fail(res, err));
  };

  private async serve(req: Request, res: Response): Promise<void> {
    const settings = this.config.current().config.gateway.http.endpoints.mcp;
    if (!settings.enabled) {
      throw new AppError(ErrorCode.NotFound, 'the MCP server is not enabled (gateway.http.endpoints.mcp.enabled)');
    }
    if ((req.path.replace(/\/+$/, '') || '/') !== '/')
      throw new AppError(ErrorCode.NotFound, `no MCP endpoint at ${req.originalUrl.split('?')[0]}: use ${MCP_ENDPOINT_PATH}`);
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      res.setHeader('Allow', 'POST, GET, DELETE');
      throw new AppError(ErrorCode.MethodNotAllowed, `${req.method} is not allowed here; use POST, GET or DELETE`);
    }
    const verdict = this.gate.admit(req, settings);
    if (verdict.kind === 'unauthenticated') {
      res.setHeader('WWW-Authenticate', CHALLENGE);
      // One answer for every failure: no header, another scheme, an unknown token, a key whose variable is unset.
      throw new AppError(ErrorCode.Unauthenticated, 'Unauthorized: send an MCP key of this gateway as Authorization: Bearer <key>');
    }
    if (verdict.kind === 'rate-limited') {
      throw new AppError(ErrorCode.RateLimited, `Rate limit reached for key "${verdict.key.name}": ${verdict.limit} requests per minute`);
    }
    const caller: McpCaller = { key: verdict.key, ...onlyAgentOf(req) };
    (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfoFor(caller);
    const body = req.method === 'POST' ? await readJsonBody(req) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.use(sessionId, caller.key.name);
      if (!session)
        throw new AppError(ErrorCode.NotFound, 'Session not found: it ended, or this key did not open it; initialize a new one');
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST')
      throw new AppError(ErrorCode.BadRequest, 'Bad Request: Mcp-Session-Id header is required (initialize a session first)');
    return this.open(req, res, caller, body);
  }

  /** A request without a session: the transport accepts only an initialize, which opens one. */
  private async open(req: Request, res: Response, caller: McpCaller, body: unknown): Promise<void> {
    const server = createSessionServer({ name: 'clawgate', version: GATEWAY_VERSION }, this.config, this.asks);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const session: McpSession = {
          id,
          keyName: caller.key.name,
          ...(caller.onlyAgent !== undefined ? { onlyAgent: caller.onlyAgent } : {}),
          transport,
          server,
          toolNames: toolNames(this.config, caller),
        };
        for (const old of this.sessions.add(session)) void this.end(old);
        this.logger.log({ event: 'mcp.session.opened', key: caller.key.name }, `MCP session opened by key "${caller.key.name}"`);
      },
      onsessionclosed: (id) => this.sessions.remove(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.remove(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    // Not an initialize (the transport answered 400): nothing was opened, nothing is kept.
    if (!transport.sessionId) await server.close();
  }

  /**
   * After each applied config: a session whose key is gone (or the endpoint turned off) ends; one whose tools
   * changed (agents added or removed, the key's patterns edited) hears `notifications/tools/list_changed`.
   */
  private followConfig(next: RuntimeSnapshot): void {
    const settings = next.config.gateway.http.endpoints.mcp;
    for (const session of this.sessions.all()) {
      const key = settings.enabled ? settings.keys.find((k) => k.name === session.keyName && k.usable) : undefined;
      if (!key) {
        void this.end(session);
        continue;
      }
      const names = toolNames(this.config, { key, ...(session.onlyAgent !== undefined ? { onlyAgent: session.onlyAgent } : {}) });
      if (names === session.toolNames) continue;
      session.toolNames = names;
      session.server.sendToolListChanged().catch(() => undefined);
    }
  }

  private async end(session: McpSession): Promise<void> {
    this.sessions.remove(session.id);
    await session.server.close().catch(() => undefined);
  }

  private fail(res: ServerResponse, err: unknown): void {
    if (!(err instanceof AppError)) this.logger.error(`request failed: ${(err as Error)?.stack ?? String(err)}`);
    if (res.headersSent) {
      res.end();
      return;
    }
    const appError = err instanceof AppError ? err : new AppError(ErrorCode.Internal, 'internal error');
    writeMcpHttpError(res, appError, appError.code === ErrorCode.PayloadTooLarge ? { Connection: 'close' } : {});
  }
}

function toolNames(config: ConfigStore, caller: McpCaller): string {
  return toolsFor(agentsForCaller(config, caller))
    .map((t) => t.name)
    .join(',');
}

/** `x-openclaw-agent-id`: the one agent this request may ask (400 when it is not an agent id). */
function onlyAgentOf(req: Request): { onlyAgent?: string } {
  const raw = req.headers[MCP_AGENT_HEADER];
  if (raw === undefined) return {};
  const id = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (!isCanonicalAgentId(id))
    throw new AppError(ErrorCode.BadRequest, `${MCP_AGENT_HEADER} must be one agent id ([a-z0-9][a-z0-9_-]{0,63})`);
  return { onlyAgent: id };
}

/** The JSON-RPC body: at most 1 MiB (413), JSON (400, -32700), nested at most 64 levels (400). */
async function readJsonBody(req: Request): Promise<unknown> {
  const body = await readLimitedBody(req, MAX_MCP_REQUEST_BYTES);
  if (body.kind === 'too-large')
    throw new AppError(ErrorCode.PayloadTooLarge, `the request body is larger than ${MAX_MCP_REQUEST_BYTES} bytes`);
  if (body.kind === 'aborted') throw new AppError(ErrorCode.BadRequest, 'the request body was not received completely');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.bytes.toString('utf8'));
  } catch {
    throw new JsonParseError('Parse error: the body is not JSON (send one JSON-RPC message, or a batch, as application/json)');
  }
  if (jsonDepthExceeds(parsed, MAX_BODY_DEPTH))
    throw new AppError(ErrorCode.BadRequest, `the request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
  return parsed;
}

/** Mounts the MCP server at /mcp. Call it before the global body parsers are registered (see bootstrap). */
export function mountMcpEndpoint(app: INestApplication): void {
  app.use(MCP_ENDPOINT_PATH, app.get(McpEndpoint).handler);
}
