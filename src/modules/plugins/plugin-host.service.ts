import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { bundledPluginDefinition } from '../../bundled-plugins';
import type { PluginDefinition, PluginService } from '../../plugin-sdk';
import { ConfigStore, GATEWAY_OPTIONS, isReservedModelProviderId, type GatewayOptions, type RuntimeSnapshot } from '../config';
import { AuthRefusals, GatewayMetrics } from '../metrics';
import { ProviderRegistry, RunHooks, ToolRegistry } from '../runtime';
import { maskedPluginConfig } from './masked-plugin-config';
import { desiredPlugins, identityOf, type DesiredPlugin } from './plugin-desired';
import type { PluginChannelRunner } from './plugin-channels.port';
import type { PluginMcpServerRunner } from './plugin-mcp-servers.port';
import { messageOf } from './plugin-errors';
import { PluginHookDispatcher } from './plugin-hooks';
import { loadPluginModule } from './plugin-module-loader';
import { nothingRegistered, type PluginRecord, type PluginStatus } from './plugin-record';
import { authEdgeOf, PluginRoutes } from './plugin-routes';
import { createPluginKeyGate } from './plugin-key-gate';
import { PluginScope } from './plugin-scope';
import { pluginModelProvider } from './plugin-model-provider';
import { pluginTool } from './plugin-tool';
import { withDeadline } from './with-deadline';

/** How long `register(api)` and each service's `start` may take before the plugin is `failed`. */
export const PLUGIN_START_DEADLINE_MS = 10_000;
/** How long each service's `stop` may take (unloading, shutdown) before the gateway goes on without it. */
export const PLUGIN_STOP_DEADLINE_MS = 5_000;
const PLUGIN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

interface LoadedPlugin {
  desired: DesiredPlugin;
  scope: PluginScope;
  /** The services started, in order (stopped in reverse). */
  started: PluginService[];
}

/**
 * Runs the code of the plugins the applied config enables (docs/plugins.md): loads each one's module, calls its
 * `register(api)`, puts what it registered in place (tools in the runtime's registry, routes under `/plugins/<id>/`,
 * hooks on the runtime's port), starts its services; and follows every applied config: a plugin newly enabled is
 * loaded, one disabled or gone is unloaded (services stopped under a deadline, everything it registered taken out),
 * one whose config changed hears it through `onConfigChange`. A plugin that throws (or hangs) in `register` or a
 * service's `start` is `failed` with its error, nothing of it stays registered, and everything else goes on.
 */
@Injectable()
export class PluginHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('plugins');
  private readonly hookDispatcher: PluginHookDispatcher;
  private readonly records = new Map<string, PluginRecord>();
  private readonly loaded = new Map<string, LoadedPlugin>();
  /** Failed plugins with what they failed on: tried again only once their config or code changes. */
  private readonly failedOn = new Map<string, { identity: unknown[]; config: Record<string, unknown> }>();
  /** Who owns each plugin tool name (the core's names are the registry's others). */
  private readonly toolOwners = new Map<string, string>();
  /** Who owns each channel a plugin registered. */
  private readonly channelOwners = new Map<string, string>();
  /** Who owns each model provider id a plugin registered. */
  private readonly providerOwners = new Map<string, string>();
  /** Who owns each MCP server name a plugin registered. */
  private readonly mcpServerOwners = new Map<string, string>();
  private channelRunner?: PluginChannelRunner;
  private mcpServerRunner?: PluginMcpServerRunner;
  /** Config changes are applied one after the other. */
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe?: () => void;
  private stopping = false;

  constructor(
    private readonly config: ConfigStore,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly tools: ToolRegistry,
    private readonly routes: PluginRoutes,
    hooks: RunHooks,
    private readonly metrics: GatewayMetrics,
    private readonly providers: ProviderRegistry,
    private readonly refusals: AuthRefusals,
  ) {
    this.hookDispatcher = new PluginHookDispatcher(metrics);
    hooks.attach(this.hookDispatcher);
  }

  /** After every module's init: the core's tools are registered, so a plugin cannot take one of their names. */
  async onApplicationBootstrap(): Promise<void> {
    await this.apply(this.config.current());
    this.unsubscribe = this.config.onApplied((_prev, next) => {
      void this.apply(next).then(() => this.hookDispatcher.emit('config_applied', { revision: next.revision }));
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    await this.queue;
    await Promise.all([...this.loaded.keys()].map((id) => this.unload(id)));
  }

  /** The channels module runs the channels plugins register (attached before the plugins load, in its init). */
  attachChannels(runner: PluginChannelRunner): void {
    this.channelRunner = runner;
  }

  /** The mcp module runs the MCP servers plugins register (attached before the plugins load, in its init). */
  attachMcpServers(runner: PluginMcpServerRunner): void {
    this.mcpServerRunner = runner;
  }

  /** The plugin that registered this channel, when one did. */
  channelPlugin(channelId: string): string | undefined {
    return this.channelOwners.get(channelId);
  }

  /** Every plugin found or given, with its status (`GET /admin/plugins`). */
  list(): PluginRecord[] {
    return [...this.records.values()];
  }

  get(id: string): PluginRecord | undefined {
    return this.records.get(id);
  }

  /** Resolves once every config applied so far is followed (tests and the admin API read a settled state). */
  settled(): Promise<void> {
    return this.queue;
  }

  private apply(snapshot: RuntimeSnapshot): Promise<void> {
    this.queue = this.queue
      .then(() => this.reconcile(snapshot))
      .catch((err: unknown) => this.logger.error(`plugins: ${(err as Error)?.stack ?? String(err)}`));
    return this.queue;
  }

  private async reconcile(snapshot: RuntimeSnapshot): Promise<void> {
    if (this.stopping) return;
    const { plugins, ignored } = desiredPlugins(snapshot.plugins, snapshot.config.plugins, this.options.plugins);
    for (const line of ignored) this.logger.warn(line);
    const wanted = new Map(plugins.map((p) => [p.id, p]));
    // First unload what must go (disabled, gone, other code), so a tool name a new plugin takes over is free.
    for (const [id, loaded] of this.loaded) {
      const next = wanted.get(id);
      if (!next || next.state !== 'enabled' || !isDeepStrictEqual(identityOf(next), identityOf(loaded.desired))) await this.unload(id);
    }
    for (const id of this.records.keys()) if (!wanted.has(id)) this.records.delete(id);
    for (const desired of plugins) {
      const loaded = this.loaded.get(desired.id);
      if (loaded) {
        this.reconfigure(loaded, desired);
        continue;
      }
      if (desired.state !== 'enabled') {
        this.failedOn.delete(desired.id);
        this.setRecord(desired, desired.state, desired.reason);
        continue;
      }
      const failed = this.failedOn.get(desired.id);
      if (failed && isDeepStrictEqual(failed.identity, identityOf(desired)) && isDeepStrictEqual(failed.config, desired.config)) continue;
      await this.load(desired);
    }
  }

  /**
   * The same plugin, maybe with a new config: its listeners hear it (a plugin that needs a restart for it does not);
   * its channels hear of their sections (a channel follows its own section: started, restarted, stopped).
   */
  private reconfigure(loaded: LoadedPlugin, desired: DesiredPlugin): void {
    const before = loaded.desired;
    loaded.desired = desired;
    const record = this.records.get(desired.id);
    for (const channel of loaded.scope.registrations.channels) {
      if (!isDeepStrictEqual(before.channels[channel.id], desired.channels[channel.id])) {
        this.channelRunner?.configure(channel.id, desired.channels[channel.id]);
      }
    }
    if (isDeepStrictEqual(before.config, desired.config)) return;
    if (desired.manifest?.restartRequired) {
      if (record) record.reason = 'its config changed: restart required';
      return;
    }
    if (record) record.config = maskedPluginConfig(desired.id, desired.config, desired.manifest);
    loaded.scope.configure(desired.config);
    this.logger.log({ plugin: desired.id }, `plugin ${desired.id}: config applied`);
  }

  private async load(desired: DesiredPlugin): Promise<void> {
    const { id } = desired;
    const scope = new PluginScope(
      id,
      desired.config,
      this.options.stateDir,
      desired.manifest,
      {
        toolOwner: (name) => this.toolOwners.get(name) ?? (this.tools.has(name) ? 'core' : undefined),
        channelOwner: (channelId) => this.channelOwners.get(channelId) ?? this.channelRunner?.coreOwner(channelId),
        providerOwner: (providerId) => this.providerOwners.get(providerId) ?? (isReservedModelProviderId(providerId) ? 'core' : undefined),
        mcpServerOwner: (name) => (this.mcpServerRunner?.configured(name) ? 'config' : this.mcpServerOwners.get(name)),
        count: (plugin, event, by) => this.metrics.pluginEvent(plugin, event, by),
        keyGate: (plugin, options) =>
          createPluginKeyGate(plugin, authEdgeOf(plugin), options, { config: this.config, metrics: this.metrics, refusals: this.refusals }),
      },
      desired.source === 'bundled',
      desired.root,
    );
    const loaded: LoadedPlugin = { desired, scope, started: [] };
    try {
      if (!PLUGIN_ID.test(id)) throw new Error(`plugin id ${JSON.stringify(id)} is not 1-64 letters, digits, ".", "_" or "-"`);
      const definition = await this.definitionOf(desired);
      await withDeadline(
        Promise.resolve()
          .then(() => definition.register(scope.api()))
          .catch((err: unknown) => {
            throw new Error(`register(api) threw: ${messageOf(err)}`);
          }),
        PLUGIN_START_DEADLINE_MS,
        'register(api)',
      );
      scope.seal();
      this.putInPlace(loaded);
      this.loaded.set(id, loaded);
      for (const service of scope.registrations.services) {
        await withDeadline(
          Promise.resolve()
            .then(() => service.start())
            .catch((err: unknown) => {
              throw new Error(`service ${service.id}: start() threw: ${messageOf(err)}`);
            }),
          PLUGIN_START_DEADLINE_MS,
          `service ${service.id}: start()`,
        );
        loaded.started.push(service);
      }
    } catch (err) {
      scope.seal();
      await this.unload(id);
      this.failedOn.set(id, { identity: identityOf(desired), config: desired.config });
      const message = messageOf(err);
      this.logger.error({ plugin: id }, `plugin ${id} failed: ${message}`);
      this.setRecord(desired, 'failed', message, [message]);
      return;
    }
    this.failedOn.delete(id);
    this.setRecord(desired, 'active', undefined, [], registeredOf(id, scope));
    this.logger.log({ plugin: id }, `plugin ${id} active (${desired.source})`);
  }

  private definitionOf(desired: DesiredPlugin): Promise<PluginDefinition> {
    if (desired.code) return Promise.resolve(desired.code);
    if (desired.source === 'bundled') {
      const bundled = bundledPluginDefinition(desired.id);
      if (bundled) return bundled;
    }
    if (!desired.entryFile) throw new Error('no entry module to load');
    return loadPluginModule(desired.entryFile);
  }

  /** Register has returned: its tools, routes, hooks and channels go live together. */
  private putInPlace({ scope, desired }: LoadedPlugin): void {
    const { tools, routes, hooks, channels, providers, mcpServers } = scope.registrations;
    if (channels.length && !this.channelRunner) throw new Error('registerChannel: this gateway runs no chat channels');
    if (mcpServers.length && !this.mcpServerRunner) throw new Error('registerMcpServer: this gateway runs no MCP client');
    for (const tool of tools) {
      try {
        this.tools.register(pluginTool(tool, scope.logger));
      } catch (err) {
        throw new Error(`tool ${tool.name}: ${messageOf(err)}`);
      }
      this.toolOwners.set(tool.name, scope.id);
    }
    for (const provider of providers) {
      this.providers.registerPluginProvider(provider.id, pluginModelProvider(scope.id, provider, scope.logger));
      this.providerOwners.set(provider.id, scope.id);
    }
    this.routes.set(scope.id, routes);
    for (const { hook, handler } of hooks) this.hookDispatcher.add(scope.id, hook, handler);
    for (const channel of channels) {
      this.channelOwners.set(channel.id, scope.id);
      this.channelRunner!.add(
        channel,
        { pluginId: scope.id, logger: scope.logger, stateDir: () => scope.api().stateDir },
        desired.channels[channel.id],
      );
    }
    for (const server of mcpServers) {
      this.mcpServerOwners.set(server.name, scope.id);
      this.mcpServerRunner!.addPluginServer(server, scope.id);
    }
  }

  /** Takes out everything of a plugin and stops its services (each under its deadline, the last started first). */
  private async unload(id: string): Promise<void> {
    const loaded = this.loaded.get(id);
    this.loaded.delete(id);
    this.routes.remove(id);
    this.hookDispatcher.removePlugin(id);
    for (const [name, owner] of this.toolOwners) {
      if (owner !== id) continue;
      this.tools.unregister(name);
      this.toolOwners.delete(name);
    }
    for (const [providerId, owner] of this.providerOwners) {
      if (owner !== id) continue;
      this.providers.unregisterPluginProvider(providerId);
      this.providerOwners.delete(providerId);
    }
    for (const [channelId, owner] of this.channelOwners) {
      if (owner !== id) continue;
      this.channelOwners.delete(channelId);
      await this.channelRunner?.remove(channelId);
    }
    for (const [name, owner] of this.mcpServerOwners) {
      if (owner !== id) continue;
      this.mcpServerOwners.delete(name);
      await this.mcpServerRunner?.removePluginServer(name);
    }
    for (const service of [...(loaded?.started ?? [])].reverse()) {
      try {
        await withDeadline(
          Promise.resolve().then(() => service.stop?.()),
          PLUGIN_STOP_DEADLINE_MS,
          `service ${service.id}: stop()`,
        );
      } catch (err) {
        this.logger.warn({ plugin: id }, `plugin ${id}: ${messageOf(err)}`);
      }
    }
    if (loaded && this.records.get(id)?.status === 'active') this.logger.log({ plugin: id }, `plugin ${id} unloaded`);
  }

  private setRecord(
    desired: DesiredPlugin,
    status: PluginStatus,
    reason?: string,
    errors: string[] = [],
    registered = nothingRegistered(),
  ): void {
    const manifest = desired.manifest;
    this.records.set(desired.id, {
      id: desired.id,
      source: desired.source,
      name: manifest?.name ?? desired.code?.name,
      description: manifest?.description ?? desired.code?.description,
      version: manifest?.version ?? desired.code?.version,
      root: desired.root,
      status,
      reason,
      errors,
      declared: manifest ? { ...manifest.contracts } : undefined,
      registered,
      config: maskedPluginConfig(desired.id, desired.config, manifest),
      since: new Date().toISOString(),
    });
  }
}

function registeredOf(id: string, scope: PluginScope) {
  const { tools, routes, services, hooks, channels, mcpServers } = scope.registrations;
  return {
    channels: channels.map((c) => c.id),
    mcpServers: mcpServers.map((s) => s.name),
    tools: tools.map((t) => t.name),
    routes: routes.map((r) => `${r.method} ${r.absolute ? '' : `/plugins/${id}`}${r.path}`),
    services: services.map((s) => s.id),
    hooks: [...new Set(hooks.map((h) => h.hook))],
  };
}
