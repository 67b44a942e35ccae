/**
 * The plugin SDK's types: what a plugin's `register(api)` receives and what it hands back. This file is the
 * contract between the gateway and code it does not own, so it imports nothing of the gateway's modules: a
 * plugin compiled against it needs only `clawgate/plugin-sdk`. See docs/plugins.md.
 */

import type { ChannelDefinition } from './plugin-channel-api';
import type { PluginCallerKey, PluginKeyGate, PluginKeyGateOptions, PluginRouteError } from './plugin-key-gate-api';
import type { PluginLogger } from './plugin-logger';
import type { PluginModelProvider } from './plugin-provider-api';

export type { PluginLogger } from './plugin-logger';

/** Who is calling a plugin's tool: the run whose model asked for it. */
export interface PluginToolContext {
  agentId: string;
  sessionKey: string;
  /** Aborted when the run is (a cancel, a timeout, the gateway stopping): long work should stop on it. */
  signal: AbortSignal;
  logger: PluginLogger;
}

/**
 * A tool the agents' models may call. `parameters` is the JSON Schema of the arguments object: the gateway checks
 * the arguments against it before `execute` runs. What `execute` returns is the tool's result (a string as is,
 * anything else as JSON); what it throws is an error result the model reads (an `AppError`'s code maps as the
 * built-in tools' do: `forbidden`, `not_found`, `timeout`, else `error`).
 */
export interface PluginToolDefinition<A = Record<string, unknown>> {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  execute(args: A, ctx: PluginToolContext): unknown;
}

/** A request to a plugin's HTTP route (under `/plugins/<id>/`). The body is read as JSON when it is JSON. */
export interface PluginHttpRequest {
  method: string;
  /** The path below `/plugins/<id>`, starting with `/`. */
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  query: Readonly<Record<string, string | string[] | undefined>>;
  body: unknown;
  /** The body's bytes as they were received (empty for none): what a webhook signature is computed over. */
  rawBody: Buffer;
  /** The caller's key, on a route behind a `keyGate`. */
  key?: PluginCallerKey;
}

export interface PluginHttpResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A string or Buffer is sent as is; anything else as JSON. */
  body?: unknown;
  /**
   * Server-Sent Events instead of a body: the answer is `text/event-stream` (`status` and `headers` apply), each event
   * is written as it is produced (`event: <event>`, `data: <data as JSON>`), and the response ends when the iterable
   * does. A client that goes away stops the reading (the iterator's `return()` is called). What the iterable throws
   * ends the stream with an `error` event naming nothing of it (the message is in the log).
   */
  events?: AsyncIterable<PluginServerSentEvent>;
}

/** One event of a streamed answer (`PluginHttpResponse.events`). */
export interface PluginServerSentEvent {
  /** The event's name; absent: an unnamed event (a client's default `message` event), as OpenAI's streams send. */
  event?: string;
  /** Sent as one line of JSON. */
  data: unknown;
  /** Sent as is instead of `data` (a protocol's own marker, such as `[DONE]`); passes the secret masker like `data`. */
  text?: string;
}

/**
 * An HTTP route. `auth`: `public` (the plugin checks what it needs, e.g. a webhook signature), or an admin role
 * (`viewer` | `operator` | `admin`: the gateway checks the caller as for `/admin`).
 */
export interface PluginHttpRoute {
  /** `*`: every method, for a route that answers a method it does not serve itself (405 in its own shape). */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | '*';
  /** Below `/plugins/<id>`, starting with `/`; `:name` segments are parameters. */
  path: string;
  /**
   * Bundled plugins only (docs/plugins.md#bundled-plugins): `path` is the route's whole path (`/channels/http/messages`,
   * no parameters) rather than one below `/plugins/<id>`, so a built-in surface keeps its address when it moves into a
   * plugin. A path ending in `/*` (`/v1/*`) is the path and everything below it (`request.path` is the whole path). A
   * plugin from anywhere else that asks for it fails `register`.
   */
  absolute?: boolean;
  /**
   * `false`: the body is not parsed, whatever its media type (`body` is undefined; `rawBody` holds the bytes), for a
   * route that reads its own format with its own messages. The size limit still applies. [true]
   */
  parseBody?: boolean;
  /** A bearer-key gate (`api.createKeyGate`), run after `precheck` and before the body is read; see PluginKeyGate. */
  keyGate?: PluginKeyGate;
  /**
   * Answers every error of this route in the plugin's own shape (an API's error object) instead of the gateway's
   * problem+json: what `precheck` or `handle` threw, and the gateway's refusals before and after them (see
   * PluginRouteError). The gateway still adds its headers (the challenge of a 401, `Connection: close` after a 413).
   * The returned `status` [error.status] and `headers` apply; `events` do not.
   */
  errorResponse?(error: PluginRouteError): PluginHttpResponse;
  auth: 'public' | 'viewer' | 'operator' | 'admin';
  /**
   * For a `public` route that checks a credential itself: the `WWW-Authenticate` value sent when `handle` refuses the
   * caller (throws an `AppError` with `ErrorCode.Unauthenticated`). Such a refusal is also counted and logged like
   * the gateway's own (`clawgate_auth_refusals_total`, docs/operations.md#refused-credentials), never with the
   * credential.
   */
  challenge?: string;
  /**
   * Runs before the body is read (a `public` route's credential check): what it throws is the answer, and the body is
   * never read, so an anonymous caller cannot make the gateway read and parse up to the body limit. It receives the
   * request without its body.
   */
  precheck?(request: Omit<PluginHttpRequest, 'body' | 'rawBody'>): Promise<void> | void;
  handle(request: PluginHttpRequest & { params: Record<string, string> }): Promise<PluginHttpResponse> | PluginHttpResponse;
}

/** Work that runs while the plugin is active: `start` when it is loaded, `stop` (under a deadline) when it is not. */
export interface PluginService {
  id: string;
  start(): Promise<void> | void;
  stop?(): Promise<void> | void;
}

/**
 * An MCP server a plugin adds (docs/plugins.md#mcp-servers): the keys of `mcp.servers.<name>` in the config
 * (docs/mcp.md), checked the same way. A stdio server has `command` (a relative `cwd` is the plugin's directory, and
 * so is the default); an HTTP one has `url`.
 */
export interface PluginMcpServerConfig {
  enabled?: boolean;
  transport?: 'stdio' | 'streamable-http' | 'sse';
  command?: string;
  args?: string[];
  /** Added to the process's minimal inherited environment; the values are secrets (masked everywhere). */
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  /** Sent with every HTTP request; the values are secrets (masked everywhere). */
  headers?: Record<string, string>;
  startup?: 'lazy' | 'boot';
  requestTimeoutMs?: number;
  connectionTimeoutMs?: number;
  maxOutputBytes?: number;
  toolFilter?: { include?: string[]; exclude?: string[] };
}

/** The run's life, as hooks see it. Every hook runs under a time budget; one that throws or overruns is skipped. */
export interface PluginHookEvents {
  /** A message reached an agent (after routing, before the run). */
  message_received: { agentId: string; sessionKey: string; channel: string; text: string };
  /** Right before a model is called. */
  before_model_call: { agentId: string; sessionKey: string; model: string };
  /** Right before a tool runs: the handler may refuse the call (`{ refuse: reason }`); the model reads the reason. */
  before_tool_call: { agentId: string; sessionKey: string; tool: string; args: Record<string, unknown> };
  /** A run ended. */
  after_run: { agentId: string; sessionKey: string; runId: string; status: 'completed' | 'failed' | 'canceled'; reply?: string };
  /** A new config was applied (the plugin's own config: `api.config()`). */
  config_applied: { revision: string };
}
export type PluginHookName = keyof PluginHookEvents;
/** What a `before_tool_call` handler may answer; other hooks' answers are ignored. */
export type PluginHookResult = void | { refuse: string };
export type PluginHookHandler<K extends PluginHookName> = (event: PluginHookEvents[K]) => PluginHookResult | Promise<PluginHookResult>;

/** What `register(api)` receives: one per plugin, scoped to it. */
export interface PluginApi {
  /** The plugin's id (its manifest's). */
  readonly id: string;
  /** A private directory for the plugin's files: `<stateDir>/plugins/<id>/`, made on first use. */
  readonly stateDir: string;
  readonly logger: PluginLogger;
  /** The plugin's current config (`plugins.entries.<id>.config`, validated against its manifest's schema). */
  config<C = Record<string, unknown>>(): C;
  /** Called with the new config after each applied change to it. */
  onConfigChange<C = Record<string, unknown>>(listener: (config: C) => void): void;
  registerTool<A = Record<string, unknown>>(tool: PluginToolDefinition<A>): void;
  registerHttpRoute(route: PluginHttpRoute): void;
  /**
   * A bearer-key gate for the plugin's routes (docs/plugins.md#bearer-keys): the gateway's key model — tokens compared
   * timing-safe, agent patterns per key, a 60-second rate window per key — over keys the plugin reads from its config.
   */
  createKeyGate(options: PluginKeyGateOptions): PluginKeyGate;
  registerService(service: PluginService): void;
  on<K extends PluginHookName>(hook: K, handler: PluginHookHandler<K>): void;
  /**
   * A chat channel (docs/plugins.md#channels): its id must be in the manifest's `contracts.channels` and no other
   * plugin's or the gateway's. The gateway starts it once the plugin is active and `channels.<id>` is configured
   * (and not `enabled: false`).
   */
  registerChannel(channel: ChannelDefinition): void;
  /**
   * A model API (docs/plugins.md#providers): its id must be in the manifest's `contracts.providers`, and neither a
   * built-in provider's (`echo`, `openai`, `anthropic`, `ollama`), an api kind, nor another plugin's. Agents use it
   * as the model reference `<id>/<model>`.
   */
  registerProvider(provider: PluginModelProvider): void;
  /**
   * An MCP server whose tools agents may use (docs/plugins.md#mcp-servers), run by the gateway's MCP client exactly
   * like one of `mcp.servers`: its tools are `mcp:<name>:<tool>` in `tools.allow`. The name must be in the manifest's
   * `contracts.mcpServers`, and neither in `mcp.servers` of the config (the config wins) nor another plugin's. A config
   * that is not one `mcp.servers.<name>` could have is refused naming the key.
   */
  registerMcpServer(name: string, config: PluginMcpServerConfig): void;
  /** Counters the plugin keeps, exported as `clawgate_plugin_events_total{plugin,event}`. */
  count(event: string, by?: number): void;
}

/** A plugin's code: what its module exports (CommonJS `module.exports` or an ES module's default export). */
export interface PluginDefinition {
  register(api: PluginApi): void | Promise<void>;
}

/**
 * A plugin given in code (`startGateway({ plugins: [...] })`): no manifest to read, so the definition carries the id
 * (its key under `plugins.entries` and its routes' prefix) and what the admin API shows of it.
 */
export interface CodePlugin extends PluginDefinition {
  id: string;
  name?: string;
  description?: string;
  version?: string;
}
