import { chmodSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type {
  ChannelDefinition,
  PluginApi,
  PluginHookHandler,
  PluginHookName,
  PluginHttpRoute,
  PluginKeyGate,
  PluginKeyGateOptions,
  PluginLogger,
  PluginMcpServerConfig,
  PluginModelProvider,
  PluginService,
  PluginToolDefinition,
} from '../../plugin-sdk';
import { type McpServerSettings, type PluginManifest, pluginMcpServerSettings } from '../config';
import { PLUGIN_HOOKS } from './plugin-hooks';
import { isPluginKeyGate } from './plugin-key-gate';
import { pluginLogger } from './plugin-logger';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const ROUTE_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', '*']);
const ROUTE_AUTH: ReadonlySet<string> = new Set(['public', 'viewer', 'operator', 'admin']);
// An absolute path may end in `/*`: the path and everything below it.
const ROUTE_PATH = /^\/[A-Za-z0-9._~:/-]*(?:\/\*)?$/;
const CHANNEL_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
// A provider id is the first part of a model reference (`<id>/<model>`): a provider name's pattern.
const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** What a plugin's `register` asked for, kept until register has returned and then put in place all at once. */
export interface PluginRegistrations {
  tools: PluginToolDefinition[];
  routes: PluginHttpRoute[];
  services: PluginService[];
  hooks: Array<{ hook: PluginHookName; handler: PluginHookHandler<PluginHookName> }>;
  channels: ChannelDefinition[];
  providers: PluginModelProvider[];
  /** MCP servers, with the settings `mcp.servers.<name>` would have. */
  mcpServers: McpServerSettings[];
}

/** What the scope asks of the host: who owns a tool name or channel id already (the core's are named `core`). */
export interface ScopeHost {
  toolOwner(name: string): string | undefined;
  channelOwner(id: string): string | undefined;
  /** Who has a model provider id: `core` for a built-in provider's name or an api kind. */
  providerOwner(id: string): string | undefined;
  /** Who has an MCP server name: `config` when `mcp.servers` has it, else the plugin that registered it. */
  mcpServerOwner(name: string): string | undefined;
  count(plugin: string, event: string, by: number): void;
  /** A bearer-key gate over the plugin's keys (plugin-key-gate.ts). */
  keyGate(plugin: string, options: PluginKeyGateOptions): PluginKeyGate;
}

/**
 * One plugin's `api`: what it registers is checked at the call (a bad name, a name the core or another plugin has,
 * one its manifest does not declare: the call throws, so `register` fails and the plugin is `failed`) and staged;
 * the host puts it in place once `register` returned. After that, registering throws: a plugin's surface is fixed
 * while it is loaded.
 */
export class PluginScope {
  readonly registrations: PluginRegistrations = {
    tools: [],
    routes: [],
    services: [],
    hooks: [],
    channels: [],
    providers: [],
    mcpServers: [],
  };
  readonly logger: PluginLogger;
  private readonly configListeners: Array<(config: Record<string, unknown>) => void> = [];
  private sealed = false;
  private stateDirMade = false;

  constructor(
    readonly id: string,
    private config: Record<string, unknown>,
    private readonly stateRoot: string,
    private readonly manifest: PluginManifest | undefined,
    private readonly host: ScopeHost,
    /** A bundled plugin: part of the gateway's own code, so it may take what others may not (an absolute route path). */
    private readonly bundled = false,
    /** The plugin's directory (absent for one given in code): what a relative `cwd` of its MCP servers is relative to. */
    private readonly root?: string,
  ) {
    this.logger = pluginLogger(id);
  }

  /** The api handed to `register(api)`. */
  api(): PluginApi {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the api's getters read the scope
    const scope = this;
    return Object.freeze({
      id: this.id,
      get stateDir() {
        return scope.stateDir();
      },
      logger: this.logger,
      config: <C>() => structuredClone(scope.config) as C,
      onConfigChange: <C>(listener: (config: C) => void) => {
        if (typeof listener !== 'function') throw new TypeError('onConfigChange(listener): listener must be a function');
        scope.configListeners.push(listener as (config: Record<string, unknown>) => void);
      },
      registerTool: <A>(tool: PluginToolDefinition<A>) => scope.registerTool(tool as unknown as PluginToolDefinition),
      registerHttpRoute: (route: PluginHttpRoute) => scope.registerHttpRoute(route),
      createKeyGate: (options: PluginKeyGateOptions) => {
        scope.open('createKeyGate');
        return scope.host.keyGate(scope.id, options);
      },
      registerService: (service: PluginService) => scope.registerService(service),
      on: <K extends PluginHookName>(hook: K, handler: PluginHookHandler<K>) =>
        scope.on(hook, handler as unknown as PluginHookHandler<PluginHookName>),
      registerChannel: (channel: ChannelDefinition) => scope.registerChannel(channel),
      registerProvider: (provider: PluginModelProvider) => scope.registerProvider(provider),
      registerMcpServer: (name: string, config: PluginMcpServerConfig) => scope.registerMcpServer(name, config),
      count: (event: string, by = 1) => {
        if (typeof event !== 'string' || !event) throw new TypeError('count(event, by): event must be a non-empty string');
        if (typeof by !== 'number' || !Number.isFinite(by) || by < 0)
          throw new TypeError('count(event, by): by must be a finite number ≥ 0');
        scope.host.count(scope.id, event, by);
      },
    });
  }

  /** Register has returned: nothing more may be registered. */
  seal(): void {
    this.sealed = true;
  }

  /** A new config for the plugin was applied: its listeners hear it (one that throws is logged, the others still hear). */
  configure(config: Record<string, unknown>): void {
    this.config = config;
    for (const listener of this.configListeners) {
      try {
        listener(structuredClone(config));
      } catch (err) {
        this.logger.error(`config change listener threw: ${(err as Error)?.message ?? String(err)}`);
      }
    }
  }

  private stateDir(): string {
    const dir = path.join(this.stateRoot, 'plugins', this.id);
    if (!this.stateDirMade) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // mkdir's mode passes the umask, and an existing directory keeps its own: set it.
      chmodSync(dir, 0o700);
      this.stateDirMade = true;
    }
    return dir;
  }

  private registerTool(tool: PluginToolDefinition): void {
    this.open('registerTool');
    const name = tool?.name;
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
      throw new TypeError(`registerTool: name must be 1-64 letters, digits, "_" or "-" (got ${JSON.stringify(name)})`);
    }
    if (typeof tool.description !== 'string') throw new TypeError(`registerTool(${name}): description must be a string`);
    if (!tool.parameters || typeof tool.parameters !== 'object')
      throw new TypeError(`registerTool(${name}): parameters must be a JSON Schema object`);
    if (typeof tool.execute !== 'function') throw new TypeError(`registerTool(${name}): execute must be a function`);
    this.declared('tool', name, this.manifest?.contracts.tools);
    const owner = this.host.toolOwner(name) ?? (this.registrations.tools.some((t) => t.name === name) ? this.id : undefined);
    if (owner)
      throw new Error(`registerTool: tool "${name}" is already registered by ${owner === 'core' ? 'the gateway' : `plugin ${owner}`}`);
    this.registrations.tools.push(tool);
  }

  private registerHttpRoute(route: PluginHttpRoute): void {
    this.open('registerHttpRoute');
    const where = `registerHttpRoute(${route?.method} ${route?.path})`;
    if (!ROUTE_METHODS.has(route?.method)) throw new TypeError(`${where}: method must be one of ${[...ROUTE_METHODS].join(', ')}`);
    if (typeof route.path !== 'string' || !ROUTE_PATH.test(route.path))
      throw new TypeError(`${where}: path must start with "/" (below /plugins/${this.id})`);
    if (route.absolute !== undefined && typeof route.absolute !== 'boolean') throw new TypeError(`${where}: absolute must be a boolean`);
    if (route.absolute) {
      if (!this.bundled)
        throw new Error(`${where}: only a bundled plugin may serve an absolute path (yours are below /plugins/${this.id})`);
      if (route.path.split('/').some((s) => s.startsWith(':'))) throw new TypeError(`${where}: an absolute path has no :parameters`);
    }
    checkRouteOptions(route, where);
    if (!ROUTE_AUTH.has(route.auth)) throw new TypeError(`${where}: auth must be one of ${[...ROUTE_AUTH].join(', ')}`);
    if (typeof route.handle !== 'function') throw new TypeError(`${where}: handle must be a function`);
    if (route.precheck !== undefined && typeof route.precheck !== 'function') throw new TypeError(`${where}: precheck must be a function`);
    if (route.challenge !== undefined && (typeof route.challenge !== 'string' || /[\r\n]/.test(route.challenge)))
      throw new TypeError(`${where}: challenge must be a one-line string`);
    const shape = (p: string) =>
      p
        .split('/')
        .filter(Boolean)
        .map((s) => (s.startsWith(':') ? ':' : s))
        .join('/');
    if (
      this.registrations.routes.some(
        (r) => r.method === route.method && !!r.absolute === !!route.absolute && shape(r.path) === shape(route.path),
      )
    ) {
      throw new Error(`${where}: this route is already registered`);
    }
    this.registrations.routes.push(route);
  }

  private registerService(service: PluginService): void {
    this.open('registerService');
    if (typeof service?.id !== 'string' || !service.id) throw new TypeError('registerService: id must be a non-empty string');
    if (typeof service.start !== 'function') throw new TypeError(`registerService(${service.id}): start must be a function`);
    if (service.stop !== undefined && typeof service.stop !== 'function')
      throw new TypeError(`registerService(${service.id}): stop must be a function`);
    if (this.registrations.services.some((s) => s.id === service.id))
      throw new Error(`registerService: service "${service.id}" is already registered`);
    this.registrations.services.push(service);
  }

  private registerChannel(channel: ChannelDefinition): void {
    this.open('registerChannel');
    const id = channel?.id;
    if (typeof id !== 'string' || !CHANNEL_ID.test(id)) {
      throw new TypeError(`registerChannel: id must be 1-64 lowercase letters, digits, "_" or "-" (got ${JSON.stringify(id)})`);
    }
    if (typeof channel.start !== 'function') throw new TypeError(`registerChannel(${id}): start must be a function`);
    if (typeof channel.send !== 'function') throw new TypeError(`registerChannel(${id}): send must be a function`);
    if (channel.stop !== undefined && typeof channel.stop !== 'function')
      throw new TypeError(`registerChannel(${id}): stop must be a function`);
    if (channel.access !== undefined && channel.access !== 'policy' && channel.access !== 'accounts')
      throw new TypeError(`registerChannel(${id}): access must be "policy" or "accounts"`);
    this.declared('channel', id, this.manifest?.contracts.channels);
    const owner = this.host.channelOwner(id) ?? (this.registrations.channels.some((c) => c.id === id) ? this.id : undefined);
    if (owner) {
      throw new Error(`registerChannel: channel "${id}" is already registered by ${owner === 'core' ? 'the gateway' : `plugin ${owner}`}`);
    }
    this.registrations.channels.push(channel);
  }

  private registerProvider(provider: PluginModelProvider): void {
    this.open('registerProvider');
    const id = provider?.id;
    if (typeof id !== 'string' || !PROVIDER_ID.test(id)) {
      throw new TypeError(`registerProvider: id must be 1-64 letters, digits, ".", "_" or "-" (got ${JSON.stringify(id)})`);
    }
    if (typeof provider.chat !== 'function') throw new TypeError(`registerProvider(${id}): chat must be a function`);
    this.declared('provider', id, this.manifest?.contracts.providers);
    const owner = this.host.providerOwner(id) ?? (this.registrations.providers.some((p) => p.id === id) ? this.id : undefined);
    if (owner) {
      const by = owner === 'core' ? 'a built-in model provider or api kind of the gateway' : `already registered by plugin ${owner}`;
      throw new Error(`registerProvider: provider "${id}" is ${by}`);
    }
    this.registrations.providers.push(provider);
  }

  private registerMcpServer(name: string, config: PluginMcpServerConfig): void {
    this.open('registerMcpServer');
    if (typeof name !== 'string') throw new TypeError(`registerMcpServer: name must be a string (got ${typeof name})`);
    const where = `registerMcpServer(${JSON.stringify(name)})`;
    const checked = pluginMcpServerSettings(name, config, this.root ?? this.stateDir());
    if (!checked.ok) {
      const issues = checked.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
      throw new TypeError(`${where}: ${issues.join('; ')}`);
    }
    this.declared('mcpServer', name, this.manifest?.contracts.mcpServers);
    const owner = this.host.mcpServerOwner(name) ?? (this.registrations.mcpServers.some((s) => s.name === name) ? this.id : undefined);
    if (owner === 'config') {
      throw new Error(
        `${where}: plugin ${this.id} may not register MCP server "${name}": mcp.servers.${name} is configured, and the config wins (rename one of them)`,
      );
    }
    if (owner) throw new Error(`${where}: plugin ${this.id} may not register MCP server "${name}": plugin ${owner} has registered it`);
    this.registrations.mcpServers.push(checked.settings);
  }

  private on(hook: PluginHookName, handler: PluginHookHandler<PluginHookName>): void {
    this.open('on');
    if (!PLUGIN_HOOKS.includes(hook)) throw new TypeError(`on(${JSON.stringify(hook)}): not a hook; hooks are ${PLUGIN_HOOKS.join(', ')}`);
    if (typeof handler !== 'function') throw new TypeError(`on(${hook}): handler must be a function`);
    this.registrations.hooks.push({ hook, handler });
  }

  private open(call: string): void {
    if (this.sealed) throw new Error(`${call}: register(api) has returned; a plugin registers everything in register`);
  }

  /** A plugin with a manifest registers only what it declares (`contracts`); one given in code declares nothing. */
  private declared(kind: string, name: string, declared: readonly string[] | undefined): void {
    if (this.manifest && !declared?.includes(name)) {
      const call = `register${kind[0].toUpperCase()}${kind.slice(1)}`;
      throw new Error(`${call}: ${kind} "${name}" is not declared in the manifest's contracts.${kind}s`);
    }
  }
}

/** The optional parts of a route: each of the type the SDK says, a prefix path (`/x/*`) only for an absolute route. */
function checkRouteOptions(route: PluginHttpRoute, where: string): void {
  if (route.path.endsWith('/*') && !route.absolute)
    throw new TypeError(`${where}: only an absolute path may end in "/*" (the path and everything below it)`);
  if (route.parseBody !== undefined && typeof route.parseBody !== 'boolean') throw new TypeError(`${where}: parseBody must be a boolean`);
  if (route.keyGate !== undefined && !isPluginKeyGate(route.keyGate))
    throw new TypeError(`${where}: keyGate must be a gate made by api.createKeyGate`);
  if (route.errorResponse !== undefined && typeof route.errorResponse !== 'function')
    throw new TypeError(`${where}: errorResponse must be a function`);
}
