import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { SpanKind, type Span } from '@opentelemetry/api';
import { isDeepStrictEqual } from 'node:util';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { mcpToolPolicyName } from '../../../common/mcp-tool-policy';
import { redactSecretFields } from '../../../common/secrets/redact-document';
import { registerSecretSource } from '../../../common/secrets/secret-mask';
import { CLAWGATE, GEN_AI, MCP } from '../../../common/telemetry/span-attributes';
import { Tracing } from '../../../common/telemetry/tracing';
import { ConfigStore, type McpServerSettings, type McpSettings, type ResolvedAgent } from '../../config';
import { GatewayMetrics, type McpCallOutcome } from '../../metrics';
import { GuardedTransport } from '../../outbound';
import { PluginHost, type PluginMcpServerRunner } from '../../plugins';
import { type AgentTool, type ToolContext, ToolRegistry, type ToolResult } from '../../runtime';
import { McpConnection, type McpConnectionStatus } from './mcp-connection';
import { mcpFunctionName } from './mcp-function-names';
import { agentMayUseServer } from './mcp-server-grants';
import { toolResultOf } from './mcp-tool-result';

/** A tool of a server as the registry has it. */
interface RegisteredMcpTool {
  /** The name the model calls (the registry's key). */
  functionName: string;
  policyName: string;
  tool: Tool;
}

interface ServerEntry {
  connection: McpConnection;
  tools: Map<string, RegisteredMcpTool>;
  /** The plugin that registered the server (absent: `mcp.servers`). */
  plugin?: string;
}

/** A server a plugin registered (`api.registerMcpServer`), with the settings `mcp.servers.<name>` would have. */
export interface PluginMcpServer {
  settings: McpServerSettings;
  plugin: string;
}

/** One server in `/admin/mcp`. */
export interface McpServerView extends McpConnectionStatus {
  name: string;
  /** The plugin that registered it (absent: `mcp.servers` of the config). */
  plugin?: string;
  enabled: boolean;
  startup: McpServerSettings['startup'];
  tools: Array<{ name: string; functionName: string; policyName: string; description?: string }>;
  /** The agents whose tool policy grants some tool of the server (agentMayUseServer), in config order. */
  agents: string[];
  /** The server's settings with `env` and `headers` values redacted. */
  config: Record<string, unknown>;
}

/**
 * The MCP client side (docs/mcp.md): follows `mcp.servers` through every applied config (a server added, changed or
 * removed applies without a restart), keeps one connection per enabled server, and puts each server's tools into the
 * runtime's ToolRegistry — the registration plugins' tools take — as `mcp:<server>:<tool>` for `tools.allow`/`deny`,
 * called `mcp__<server>__<tool>` by the model. A lazy server is started by the first run of an agent its tools are
 * offered to (the registry's preparer). The servers plugins register (`api.registerMcpServer`, handed over by the
 * plugin host through the PluginMcpServerRunner port) are run the same way beside them; a name `mcp.servers` has is
 * the config's.
 */
@Injectable()
export class McpClients implements OnModuleInit, OnApplicationShutdown, PluginMcpServerRunner {
  private readonly logger = new Logger('mcp');
  private readonly servers = new Map<string, ServerEntry>();
  /** By name, in the order registered. */
  private readonly pluginServers = new Map<string, PluginMcpServer>();
  /** The values of plugin servers' `env` and `headers`, for the secret masker (the config's are the admin module's). */
  private pluginSecrets: string[] = [];
  private readonly cleanups: Array<() => void> = [];

  constructor(
    private readonly config: ConfigStore,
    private readonly registry: ToolRegistry,
    private readonly metrics: GatewayMetrics,
    private readonly tracing: Tracing,
    private readonly guard: GuardedTransport,
    private readonly plugins?: PluginHost,
  ) {}

  onModuleInit(): void {
    this.plugins?.attachMcpServers(this);
    this.apply();
    this.cleanups.push(
      this.config.onApplied(() => this.apply()),
      this.registry.addPreparer((agent) => this.prepare(agent)),
      registerSecretSource(() => this.pluginSecrets),
    );
  }

  configured(name: string): boolean {
    return this.config.current().config.mcp.servers[name] !== undefined;
  }

  addPluginServer(settings: McpServerSettings, plugin: string): void {
    this.pluginServers.set(settings.name, { settings, plugin });
    this.pluginSecretsChanged();
    this.apply();
  }

  async removePluginServer(name: string): Promise<void> {
    if (!this.pluginServers.delete(name)) return;
    this.pluginSecretsChanged();
    if (this.servers.get(name)?.plugin !== undefined) await this.remove(name);
  }

  /** The servers plugins registered that run (a name `mcp.servers` has since taken is the config's), in the order registered. */
  pluginMcpServers(): PluginMcpServer[] {
    const configured = this.config.current().config.mcp.servers;
    return [...this.pluginServers.values()].filter((s) => configured[s.settings.name] === undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    this.cleanups.splice(0).forEach((cleanup) => cleanup());
    await Promise.all([...this.servers.keys()].map((name) => this.remove(name)));
  }

  /** Every configured server with its state and tools, in the order of the config. */
  list(): McpServerView[] {
    const { config } = this.config.current();
    const servers = [
      ...Object.values(config.mcp.servers).map((settings) => ({ settings, plugin: undefined as string | undefined })),
      ...this.pluginMcpServers(),
    ];
    return servers.map(({ settings, plugin }) => {
      const entry = this.servers.get(settings.name);
      const status: McpConnectionStatus = entry?.connection.status() ?? {
        state: 'stopped',
        transport: settings.transport,
        restarts: 0,
        callsInFlight: 0,
        stderr: [],
      };
      return {
        name: settings.name,
        ...(plugin ? { plugin } : {}),
        enabled: settings.enabled,
        startup: settings.startup,
        ...status,
        tools: [...(entry?.tools.values() ?? [])].map((t) => ({
          name: t.tool.name,
          functionName: t.functionName,
          policyName: t.policyName,
          ...(t.tool.description ? { description: t.tool.description } : {}),
        })),
        agents: config.agents.filter((agent) => agentMayUseServer(agent, settings.name)).map((agent) => agent.id),
        config: redactSecretFields(settings, ['mcp', 'servers', settings.name]) as Record<string, unknown>,
      };
    });
  }

  /**
   * Brings the connections in line with `mcp.servers` and the servers plugins registered: a changed server is a new
   * connection; the old one is retired.
   */
  private apply(): void {
    const wanted = this.wantedServers();
    for (const [name, entry] of [...this.servers]) {
      const next = wanted.get(name);
      if (!next?.settings.enabled || next.plugin !== entry.plugin || !isDeepStrictEqual(next.settings, entry.connection.settings)) {
        void this.remove(name);
      }
    }
    for (const { settings: server, plugin } of wanted.values()) {
      if (!server.enabled || this.servers.has(server.name)) continue;
      const entry: ServerEntry = { connection: undefined as unknown as McpConnection, tools: new Map(), ...(plugin ? { plugin } : {}) };
      entry.connection = new McpConnection(server, {
        toolsChanged: (tools) => this.register(server.name, entry, tools),
        warn: (message) => this.logger.warn(`MCP server "${server.name}": ${message}`),
        debug: (message) => this.logger.debug(`MCP server "${server.name}": ${message}`),
        // The outbound guard's address policy, origin and redirect rules (docs/outbound.md), its audit line as `mcp`.
        httpFetch: (settings) => this.guard.fetchFor('mcp', { url: settings.url ?? '', setting: `mcp.servers.${settings.name}.url` }),
      });
      this.servers.set(server.name, entry);
      if (server.startup === 'boot') void entry.connection.start();
    }
  }

  /**
   * `mcp.servers`, then the servers plugins registered under names it does not have: a name the config takes while a
   * plugin holds it is the config's from then on (logged; the plugin's server stops until the config lets it go).
   */
  private wantedServers(): Map<string, { settings: McpServerSettings; plugin?: string }> {
    const configured: McpSettings['servers'] = this.config.current().config.mcp.servers;
    const wanted = new Map<string, { settings: McpServerSettings; plugin?: string }>(
      Object.values(configured).map((settings) => [settings.name, { settings }]),
    );
    for (const server of this.pluginServers.values()) {
      if (!wanted.has(server.settings.name)) wanted.set(server.settings.name, server);
      else if (this.servers.get(server.settings.name)?.plugin === server.plugin) {
        this.logger.warn(
          `mcp.servers.${server.settings.name} now configures the MCP server plugin ${server.plugin} registered: the config wins, the plugin's server stops`,
        );
      }
    }
    return wanted;
  }

  private pluginSecretsChanged(): void {
    this.pluginSecrets = [...this.pluginServers.values()].flatMap(({ settings }) => [
      ...Object.values(settings.env),
      ...Object.values(settings.headers),
    ]);
  }

  /** Its tools leave the registry at once; the connection closes once its calls in flight have ended. */
  private async remove(name: string): Promise<void> {
    const entry = this.servers.get(name);
    if (!entry) return;
    this.servers.delete(name);
    for (const t of entry.tools.values()) this.registry.unregister(t.functionName);
    entry.tools.clear();
    await entry.connection.retire();
  }

  /** The registry's tools of a server made to match its list: gone ones out, new or changed ones in. */
  private register(server: string, entry: ServerEntry, tools: readonly Tool[]): void {
    if (this.servers.get(server) !== entry) return;
    const listed = new Map(tools.map((t) => [t.name, t]));
    for (const [name, registered] of entry.tools) {
      if (isDeepStrictEqual(listed.get(name), registered.tool)) continue;
      this.registry.unregister(registered.functionName);
      entry.tools.delete(name);
    }
    for (const tool of tools) {
      if (entry.tools.has(tool.name)) continue;
      const functionName = mcpFunctionName(server, tool.name, new Set(this.registry.names()));
      const registered = { functionName, policyName: mcpToolPolicyName(server, tool.name), tool };
      try {
        this.registry.register(this.agentTool(server, entry, registered, argumentsSchema(tool)));
      } catch (err) {
        // A schema the validator cannot compile: the server checks the arguments itself.
        this.logger.warn(
          `MCP server "${server}": the input schema of "${tool.name}" is not usable (${(err as Error).message}); its arguments are not checked here`,
        );
        this.registry.register(this.agentTool(server, entry, registered, { type: 'object' }));
      }
      entry.tools.set(tool.name, registered);
    }
  }

  private agentTool(server: string, entry: ServerEntry, t: RegisteredMcpTool, parameters: Record<string, unknown>): AgentTool {
    return {
      name: t.functionName,
      policyName: t.policyName,
      description: `${t.tool.description ?? t.tool.title ?? t.tool.name} (MCP server "${server}", tool "${t.tool.name}")`,
      parameters,
      handler: (ctx, args) => this.call(server, entry.connection, t.tool.name, args, ctx, entry.plugin),
    };
  }

  /** One `tools/call`: a client span, the metrics, the result as the model reads it; failures as AppErrors. */
  private async call(
    server: string,
    connection: McpConnection,
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
    /** The plugin that registered the server (absent: `mcp.servers`). */
    plugin: string | undefined,
  ): Promise<ToolResult> {
    const started = performance.now();
    let outcome: McpCallOutcome = 'failed';
    try {
      const result = await this.tracing.inSpan(
        `tools/call ${tool}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            [MCP.methodName]: 'tools/call',
            [GEN_AI.toolName]: tool,
            [CLAWGATE.mcpServer]: server,
            [GEN_AI.operationName]: 'execute_tool',
          },
        },
        async (span: Span) => {
          const answer = await connection.callTool(tool, args, ctx.signal);
          if (answer.isError) span.setAttribute('error.type', 'tool_error');
          return answer;
        },
      );
      outcome = result.isError ? 'error' : 'ok';
      // Where the limit is set: the config's key, or the plugin's registration.
      const setting = plugin ? `plugin ${plugin}'s registerMcpServer("${server}"):` : `mcp.servers.${server}.`;
      return toolResultOf(result, connection.settings.maxOutputBytes, setting);
    } catch (err) {
      outcome = ctx.signal.aborted ? 'cancelled' : err instanceof AppError && err.code === ErrorCode.UpstreamTimeout ? 'timeout' : 'failed';
      throw err;
    } finally {
      this.metrics.mcpCall(server, tool, outcome, (performance.now() - started) / 1000, plugin !== undefined);
    }
  }

  /** Before a run takes its tools: the servers whose tools the agent may be offered, started (lazy) or restarted. */
  private async prepare(agent: Pick<ResolvedAgent, 'id' | 'tools'>): Promise<void> {
    const wanted = [...this.servers.values()].filter((entry) => agentMayUseServer(agent, entry.connection.name));
    await Promise.all(wanted.map((entry) => entry.connection.ensureStarted()));
  }
}

/** The tool's input schema as the registry validates it: an object schema, without the `$schema` ajv may not know. */
function argumentsSchema(tool: Tool): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = tool.inputSchema as Record<string, unknown>;
  return { ...schema, type: 'object' };
}
