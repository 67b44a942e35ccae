import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ErrorCode as McpErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { maskSecrets } from '../../../common/secrets/secret-mask';
import type { McpServerSettings, McpTransport } from '../../config';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { keptByFilter } from './mcp-tool-filter';
import { httpTransport, type McpTransportHandle, stdioTransport } from './mcp-transport';

/** idle: not started yet (lazy); starting: process or handshake under way; ready; failed: waiting to be restarted; stopped: retired. */
export type McpServerState = 'idle' | 'starting' | 'ready' | 'failed' | 'stopped';

/** Restarts after a failure wait 1 s, 2 s, 4 s, … up to this. */
const MAX_RESTART_DELAY_MS = 30_000;
const FIRST_RESTART_DELAY_MS = 1_000;
/** A server with more tools than this has the rest left out (a warning says so). */
const MAX_TOOLS = 500;
/** Transport errors logged per start (a server writing garbage on stdout writes a lot of it). */
const LOGGED_TRANSPORT_ERRORS = 3;

/** A `fetch` through the outbound guard for an HTTP server, with `close` for its connection pool. */
export type McpHttpFetch = FetchLike & { close(): Promise<void> };

export interface McpConnectionListener {
  /** The server's tools (after `toolFilter`) as it listed them: at the start, and after `notifications/tools/list_changed`. */
  toolsChanged(tools: readonly Tool[]): void;
  warn(message: string): void;
  debug(message: string): void;
  /** The guarded `fetch` an HTTP server's requests go through (made once per connection, closed when it retires). */
  httpFetch(settings: McpServerSettings): McpHttpFetch;
}

/** What `/admin/mcp` shows of the connection. */
export interface McpConnectionStatus {
  state: McpServerState;
  transport: McpTransport;
  pid?: number;
  startedAt?: string;
  restarts: number;
  /** Tool calls running now. */
  callsInFlight: number;
  lastError?: string;
  lastErrorAt?: string;
  stderr: string[];
}

/**
 * The gateway's connection to one MCP server (docs/mcp.md#life-of-a-server): started on demand or at boot, its tool
 * list cached and refreshed when the server says it changed, calls with a timeout and the run's abort signal (the SDK
 * sends `notifications/cancelled` for both), restarted with backoff when it stops. Retired when its config changes or
 * goes: it takes no new call and closes once the calls it runs have ended.
 */
export class McpConnection {
  private state: McpServerState = 'idle';
  private client?: Client;
  private handle?: McpTransportHandle;
  private starting?: Promise<void>;
  private restartTimer?: NodeJS.Timeout;
  private failures = 0;
  private restarts = 0;
  private inFlight = 0;
  private retired = false;
  private transportErrors = 0;
  private lastTransportError?: string;
  private lastError?: { message: string; at: string };
  private startedAt?: string;
  private usedTransport: McpTransport;
  private httpFetch?: McpHttpFetch;

  constructor(
    readonly settings: McpServerSettings,
    private readonly listener: McpConnectionListener,
  ) {
    this.usedTransport = settings.transport;
  }

  get name(): string {
    return this.settings.name;
  }

  status(): McpConnectionStatus {
    return {
      state: this.state,
      transport: this.usedTransport,
      ...(this.handle?.pid() !== undefined && this.state !== 'stopped' ? { pid: this.handle.pid() } : {}),
      ...(this.startedAt ? { startedAt: this.startedAt } : {}),
      restarts: this.restarts,
      callsInFlight: this.inFlight,
      ...(this.lastError ? { lastError: this.lastError.message, lastErrorAt: this.lastError.at } : {}),
      stderr: (this.handle?.stderrTail() ?? []).map(maskSecrets),
    };
  }

  /** Starts the server unless it runs or is starting; resolves when that attempt has ended (it never rejects). */
  start(): Promise<void> {
    if (this.retired || this.state === 'ready') return Promise.resolve();
    return (this.starting ??= this.connect().finally(() => (this.starting = undefined)));
  }

  /**
   * Gets the server ready for a run that may use its tools: starts it when it was never started, and restarts it at
   * once when it stopped only once since it last ran (a run should not wait out the backoff of a server that died
   * a moment ago; one that keeps failing waits its turn).
   */
  ensureStarted(): Promise<void> {
    if (this.state === 'idle' || this.state === 'starting') return this.start();
    if (this.state === 'failed' && this.failures <= 1) {
      clearTimeout(this.restartTimer);
      return this.start();
    }
    return Promise.resolve();
  }

  /** Calls a tool; every failure is an AppError whose text names the server and the tool. */
  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const client = this.client;
    if (this.state !== 'ready' || !client) throw this.notRunning();
    this.inFlight++;
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: this.settings.requestTimeoutMs,
      })) as CallToolResult;
    } catch (err) {
      throw this.callError(err, tool, signal);
    } finally {
      this.inFlight--;
      if (this.retired && this.inFlight === 0) void this.closeClient();
    }
  }

  /**
   * Takes no new call and starts nothing again; closes the connection (and stops the process) once the calls in
   * flight have ended, so a run that is using it finishes with the connection it started with.
   */
  retire(): Promise<void> {
    this.retired = true;
    clearTimeout(this.restartTimer);
    this.state = 'stopped';
    return this.inFlight === 0 ? this.closeClient() : Promise.resolve();
  }

  private async connect(): Promise<void> {
    this.state = 'starting';
    this.transportErrors = 0;
    this.lastTransportError = undefined;
    let opened: { client: Client; handle: McpTransportHandle } | undefined;
    try {
      opened = await this.open();
      if (this.retired) {
        await opened.client.close().catch(() => undefined);
        return;
      }
      this.client = opened.client;
      this.handle = opened.handle;
      const tools = await this.listTools(opened.client);
      if (this.retired) return;
      this.state = 'ready';
      this.failures = 0;
      this.startedAt = new Date().toISOString();
      this.listener.toolsChanged(tools);
    } catch (err) {
      if (this.retired) return;
      const client = this.client ?? opened?.client;
      this.client = undefined;
      this.fail(this.startError(err));
      await client?.close().catch(() => undefined);
    }
  }

  /** The client connected over the configured transport; Streamable HTTP falls back to HTTP+SSE for older servers. */
  private async open(): Promise<{ client: Client; handle: McpTransportHandle }> {
    const { transport } = this.settings;
    if (transport === 'stdio') {
      return this.connectOver(
        stdioTransport(this.settings, (line) => this.listener.debug(`stderr: ${maskSecrets(line)}`)),
        'stdio',
      );
    }
    const fetch = (this.httpFetch ??= this.listener.httpFetch(this.settings));
    if (transport === 'sse') return this.connectOver(httpTransport(this.settings, 'sse', fetch), 'sse');
    try {
      return await this.connectOver(httpTransport(this.settings, 'streamable-http', fetch), 'streamable-http');
    } catch (err) {
      // A server of the 2024-11-05 revision answers the Streamable HTTP POST with 404 or 405 (the spec's fallback rule).
      if (!(err instanceof StreamableHTTPError) || ![400, 404, 405].includes(err.code ?? 0)) throw err;
      this.listener.debug(`Streamable HTTP refused (${err.code}); trying HTTP+SSE`);
      return this.connectOver(httpTransport(this.settings, 'sse', fetch), 'sse');
    }
  }

  private async connectOver(handle: McpTransportHandle, kind: McpTransport): Promise<{ client: Client; handle: McpTransportHandle }> {
    const client = new Client(
      { name: 'clawgate', version: '1' },
      {
        capabilities: {},
        listChanged: { tools: { autoRefresh: false, debounceMs: 100, onChanged: () => void this.refreshTools(client) } },
      },
    );
    client.onerror = (err) => this.transportError(err);
    client.onclose = () => this.closed(client);
    this.handle = handle;
    try {
      await client.connect(handle.transport, { timeout: this.settings.connectionTimeoutMs });
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    this.usedTransport = kind;
    return { client, handle };
  }

  /** Every page of `tools/list`, kept by `toolFilter`. */
  private async listTools(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.settings.connectionTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && tools.length < MAX_TOOLS);
    if (tools.length > MAX_TOOLS) this.listener.warn(`lists more than ${MAX_TOOLS} tools; the rest are left out`);
    return tools.slice(0, MAX_TOOLS).filter((t) => keptByFilter(this.settings.toolFilter, t.name));
  }

  private async refreshTools(client: Client): Promise<void> {
    if (client !== this.client || this.state !== 'ready') return;
    try {
      const tools = await this.listTools(client);
      if (client === this.client && !this.retired) this.listener.toolsChanged(tools);
    } catch (err) {
      this.listener.warn(`refreshing its tool list failed: ${maskSecrets((err as Error).message)}`);
    }
  }

  /** Something the server sent that is not MCP (garbage on stdout), or a transport failure: logged, kept for the status. */
  private transportError(err: Error): void {
    this.lastTransportError = maskSecrets(err.message).slice(0, 300);
    if (++this.transportErrors <= LOGGED_TRANSPORT_ERRORS) this.listener.warn(`transport error: ${this.lastTransportError}`);
  }

  /** The connection closed: expected when retired, else the server stopped (its process exited, the stream ended). */
  private closed(client: Client): void {
    if (client !== this.client || this.retired) return;
    this.client = undefined;
    const stderr = this.handle?.stderrTail().slice(-1)[0];
    this.fail(`the server stopped${stderr ? ` (its last stderr line: ${maskSecrets(stderr)})` : ''}`);
  }

  private fail(message: string): void {
    this.state = 'failed';
    this.failures++;
    this.lastError = { message, at: new Date().toISOString() };
    const delay = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (this.failures - 1));
    this.listener.warn(`${message}; restarting in ${delay} ms`);
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restarts++;
      void this.start();
    }, delay);
    this.restartTimer.unref();
  }

  private startError(err: unknown): string {
    const e = err as Error & { code?: unknown };
    let message: string;
    if (e.code === 'ENOENT' && this.settings.transport === 'stdio') {
      message = `could not start: command "${this.settings.command}" was not found (PATH, or relative to ${this.settings.cwd})`;
    } else if (err instanceof McpError && (err.code as McpErrorCode) === McpErrorCode.RequestTimeout) {
      message = `did not complete the MCP handshake within ${this.settings.connectionTimeoutMs} ms (connectionTimeoutMs)`;
    } else if (err instanceof McpError && (err.code as McpErrorCode) === McpErrorCode.ConnectionClosed) {
      const stderr = this.handle?.stderrTail().slice(-1)[0];
      message = `stopped during the MCP handshake${stderr ? ` (its last stderr line: ${stderr})` : ''}`;
    } else {
      message = `could not connect: ${e.message}`;
    }
    // The transport reports its own failure to connect as an error too: said once.
    if (this.lastTransportError && !message.includes(this.lastTransportError))
      message += `; it sent what is not MCP: ${this.lastTransportError}`;
    return maskSecrets(message);
  }

  private notRunning(): AppError {
    const why =
      this.state === 'failed'
        ? `it stopped and is being restarted${this.lastError ? `; last error: ${this.lastError.message}` : ''}`
        : this.state === 'stopped'
          ? 'its configuration changed or was removed'
          : 'it is still starting';
    return new AppError(ErrorCode.Unavailable, `MCP server "${this.name}" is not running: ${why}`);
  }

  private callError(err: unknown, tool: string, signal: AbortSignal): AppError {
    const at = `MCP server "${this.name}"`;
    if (signal.aborted) return new AppError(ErrorCode.Unavailable, `the call of "${tool}" on ${at} was cancelled (the run was stopped)`);
    if (err instanceof McpError) {
      switch (err.code as McpErrorCode) {
        case McpErrorCode.RequestTimeout:
          return new AppError(
            ErrorCode.UpstreamTimeout,
            `${at} did not answer "${tool}" within ${this.settings.requestTimeoutMs} ms (requestTimeoutMs); the call was cancelled`,
          );
        case McpErrorCode.ConnectionClosed:
          return new AppError(
            ErrorCode.UpstreamFailed,
            `${at} stopped during the call of "${tool}"${this.lastError ? ` (${this.lastError.message})` : ''}; it is restarted for the next calls`,
          );
        case McpErrorCode.InvalidParams:
          return new AppError(ErrorCode.InvalidParams, maskSecrets(`${at} refused the arguments of "${tool}": ${err.message}`));
        default:
          return new AppError(ErrorCode.UpstreamFailed, maskSecrets(`${at} answered "${tool}" with error ${err.code}: ${err.message}`));
      }
    }
    return new AppError(ErrorCode.UpstreamFailed, maskSecrets(`${at} failed the call of "${tool}": ${(err as Error).message}`));
  }

  private async closeClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
    if (this.retired) await this.httpFetch?.close();
  }
}
