import { Injectable, Optional } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { BUILT_IN_TOOL_NAMES } from '../../common/built-in-tools';
import { ConfigStore, exposedAgents, type NormalizedConfig, type RuntimeSnapshot } from '../config';
import { BoundCounter, BoundHistogram, OTHER } from './bound-series';
import { type ClusterCounts, registerClusterMetrics } from './cluster-metrics';
import { defineMetrics } from './metric-definitions';
import { type PublicNames, publicMetricsText } from './public-series';

export type RunOutcome = 'completed' | 'failed' | 'aborted';
export type A2aBinding = 'jsonrpc' | 'http-json';
export type RateLimitedChannel = 'a2a' | 'openai' | 'mcp' | 'plugin';
/**
 * Where a credential is checked: an A2A peer token, an http channel account, an OpenAI-compatible key, the admin API,
 * or a plugin's public route that checks one itself (`plugin`).
 */
export type AuthEdge = 'a2a' | 'http' | 'openai' | 'mcp' | 'admin' | 'plugin';
/** `missing`: no credential was sent; `invalid`: one was, and it matches nothing (or could not be verified). */
export type AuthRefusalReason = 'missing' | 'invalid';
const AUTH_EDGES: readonly AuthEdge[] = ['a2a', 'http', 'openai', 'mcp', 'admin', 'plugin'];
const AUTH_REFUSAL_REASONS: readonly AuthRefusalReason[] = ['missing', 'invalid'];
/** What a scrape may see: every name (the metrics token, docs/operations.md#who-may-scrape), or only the public ones. */
export type MetricsView = 'every-name' | 'public-names';

/** What the memory module reports per agent whose index is open. */
export interface MemoryIndexStats {
  agentId: string;
  chunks: number;
  pending: number;
  lagMs: number;
  /** bundled-static: chunks whose rescoring model's vector the background pass has not made yet [0]. */
  awaitingModel?: number;
}

/** Hops above this share one series: a chain that long is the alert, not its exact length. */
const MAX_HOPS_LABEL = 16;
const TOOL_NAMES: ReadonlySet<string> = new Set(BUILT_IN_TOOL_NAMES);
/** Distinct tool names per MCP server with series of their own. */
export const MAX_MCP_TOOL_NAMES = 100;
export type McpCallOutcome = 'ok' | 'error' | 'timeout' | 'failed' | 'cancelled';
/** Distinct event names one plugin may count; more share `other` (a plugin cannot grow the registry without bound). */
export const MAX_PLUGIN_EVENT_NAMES = 50;
const PLUGIN_EVENT_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;
const NO_PUBLIC_NAMES: PublicNames = { agents: new Set() };
/** Per config object: a snapshot never changes. */
const publicNamesByConfig = new WeakMap<NormalizedConfig, PublicNames>();

/** Per config object: the model refs with series of their own. */
const modelRefsByConfig = new WeakMap<NormalizedConfig, ReadonlySet<string>>();

function configuredModelRefs(snapshot: RuntimeSnapshot): ReadonlySet<string> {
  const refs = new Set<string>();
  for (const agent of snapshot.agentsById.values()) for (const ref of [agent.model, ...agent.fallbacks]) refs.add(ref);
  for (const provider of Object.values(snapshot.config.models.providers))
    for (const model of provider.models) refs.add(`${provider.name}/${model.id}`);
  return refs;
}

/**
 * The gateway's metrics (docs/operations.md#metrics): the one Prometheus registry of this gateway (one per app, so
 * tests can boot several) and the one way modules record into it. Modules call these methods; none of them touches
 * prom-client. Label values that name things — agents, providers, peers, tools — are checked against the config (or
 * the built-in list) and anything else becomes `other`: a caller can never create a series.
 */
@Injectable()
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly defs = defineMetrics(this.registry, () => this.scrapeMemory());
  private readonly configReloads = new BoundCounter(this.defs.configReloads);
  private readonly runs = new BoundCounter(this.defs.runs);
  private readonly runDuration = new BoundHistogram(this.defs.runDuration);
  private readonly modelCalls = new BoundHistogram(this.defs.modelCalls);
  private readonly toolCalls = new BoundCounter(this.defs.toolCalls);
  private readonly sessionsSends = new BoundCounter(this.defs.sessionsSend);
  private readonly mcpCalls = new BoundCounter(this.defs.mcpCalls);
  private readonly mcpCallDuration = new BoundHistogram(this.defs.mcpCallDuration);
  /** Per MCP server: the tool names recorded so far (a server's list is its own, so it is bounded here). */
  private readonly mcpToolNames = new Map<string, Set<string>>();
  private readonly a2aRequests = new BoundHistogram(this.defs.a2aRequests);
  private readonly a2aTasks = new BoundCounter(this.defs.a2aTasks);
  private readonly rateLimits = new BoundCounter(this.defs.rateLimited);
  private readonly outboundCalls = new BoundHistogram(this.defs.outboundCalls);
  private readonly authRefusals = new BoundCounter(this.defs.authRefusals);
  private readonly pluginEvents = new BoundCounter(this.defs.pluginEvents);
  private readonly pluginHookFailures = new BoundCounter(this.defs.pluginHookFailures);
  private readonly channelMessages = new BoundCounter(this.defs.channelMessages);
  private readonly channelDeliveryFailures = new BoundCounter(this.defs.channelDeliveryFailures);
  private readonly channelReconnects = new BoundCounter(this.defs.channelReconnects);
  private readonly modelTokens = new BoundCounter(this.defs.modelTokens);
  private readonly modelCosts = new BoundCounter(this.defs.modelCost);
  private readonly budgetSoftLimits = new BoundCounter(this.defs.budgetSoftLimits);
  private readonly toolApprovals = new BoundCounter(this.defs.toolApprovals);
  /** Per plugin id: the event names it has counted so far. */
  private readonly pluginEventNames = new Map<string, Set<string>>();
  private memorySource?: () => Promise<MemoryIndexStats[]>;
  private embeddedSource?: () => ReadonlyMap<string, number>;

  constructor(@Optional() private readonly config?: ConfigStore) {
    // Process metrics, the event-loop delay among them (clawgate_nodejs_eventloop_lag_*).
    collectDefaultMetrics({ register: this.registry, prefix: 'clawgate_' });
    for (const result of ['applied', 'unchanged', 'rejected']) this.configReloads.touch(result);
    for (const edge of AUTH_EDGES) for (const reason of AUTH_REFUSAL_REASONS) this.authRefusals.touch(edge, reason);
  }

  /** A reload that was not the boot's: applied, unchanged or rejected. */
  configReload(result: 'applied' | 'unchanged' | 'rejected'): void {
    this.configReloads.inc(result);
  }

  /** The revision now served: the one series of the info gauge. */
  configRevision(revision: string): void {
    this.defs.configRevision.reset();
    this.defs.configRevision.labels(revision).set(1);
  }

  runEnded(agentId: string, provider: string, outcome: RunOutcome, seconds: number): void {
    this.runs.inc(this.agent(agentId), outcome);
    this.runDuration.observe(seconds, this.provider(provider));
  }

  modelCall(provider: string, ok: boolean, seconds: number): void {
    this.modelCalls.observe(seconds, this.provider(provider), ok ? 'ok' : 'error');
  }

  /**
   * A model call's reported usage (docs/usage.md). The model label is a `provider/model` the config names (an agent's
   * model or fallback, or a model of its provider's catalog), else `other`; cost only when the model is priced.
   */
  modelUsage(agentId: string, modelRef: string, tokens: { input: number; output: number; cached: number }, cost: number | null): void {
    const agent = this.agent(agentId);
    const model = this.modelRef(modelRef);
    if (tokens.input) this.modelTokens.add(tokens.input, agent, model, 'input');
    if (tokens.output) this.modelTokens.add(tokens.output, agent, model, 'output');
    if (tokens.cached) this.modelTokens.add(tokens.cached, agent, model, 'cached');
    if (cost) this.modelCosts.add(cost, agent, model);
  }

  /** A budget went past its soft limit; the name is checked against `budgets`. */
  budgetSoftLimit(budget: string): void {
    this.budgetSoftLimits.inc(this.snapshot()?.config.budgets.some((b) => b.name === budget) ? budget : OTHER);
  }

  /** A tool call that needs approval was requested, or ended so (a fixed set: approval.ts). */
  toolApproval(outcome: 'requested' | 'approved' | 'denied' | 'expired' | 'withdrawn'): void {
    this.toolApprovals.inc(outcome);
  }

  /** `outcome` is the result's status, a fixed set (tool-result.ts). */
  toolCall(tool: string, outcome: string): void {
    this.toolCalls.inc(TOOL_NAMES.has(tool) ? tool : OTHER, outcome);
  }

  /**
   * An MCP tool call ended. The server is checked against `mcp.servers` (or is one a plugin registered: `pluginServer`,
   * its name declared in the plugin's manifest); a server's first MAX_MCP_TOOL_NAMES tool names are its own series, the
   * others share `other` (a server cannot grow the registry without bound).
   */
  mcpCall(server: string, tool: string, outcome: McpCallOutcome, seconds: number, pluginServer = false): void {
    const known = pluginServer || this.config?.current().config.mcp.servers[server] !== undefined;
    const serverLabel = known ? server : OTHER;
    let names = this.mcpToolNames.get(serverLabel);
    if (!names) this.mcpToolNames.set(serverLabel, (names = new Set()));
    if (!names.has(tool) && names.size < MAX_MCP_TOOL_NAMES) names.add(tool);
    const toolLabel = known && names.has(tool) ? tool : OTHER;
    this.mcpCalls.inc(serverLabel, toolLabel, outcome);
    this.mcpCallDuration.observe(seconds, serverLabel, toolLabel, outcome);
  }

  sessionsSend(outcome: string, hops: number): void {
    this.sessionsSends.inc(outcome, hops > MAX_HOPS_LABEL ? `${MAX_HOPS_LABEL}+` : String(hops));
  }

  /** `method` is the A2A method's canonical name or `other`; `code` is `OK` or the error code (a fixed set). */
  a2aRequest(method: string, binding: A2aBinding, code: string, seconds: number): void {
    this.a2aRequests.observe(seconds, method, binding, code);
  }

  /** A task entered `state` (lower case, without the TASK_STATE_ prefix). */
  a2aTask(state: string): void {
    this.a2aTasks.inc(state);
  }

  rateLimited(channel: RateLimitedChannel, peer: string): void {
    // A plugin's key gate names its peer `<plugin>/<key>` from keys the plugin's config holds.
    const label = channel === 'a2a' ? this.a2aPeer(peer) : channel === 'plugin' ? peer : this.endpointKey(channel, peer);
    this.rateLimits.inc(channel, label);
  }

  /** A request refused for its credential (recorded by AuthRefusals, which also logs it). */
  authRefused(edge: AuthEdge, reason: AuthRefusalReason): void {
    this.authRefusals.inc(edge, reason);
  }

  /** `outcome` is `ok` or the failure reason of the call (a fixed set). */
  outboundCall(peer: string, method: string, outcome: string, seconds: number): void {
    this.outboundCalls.observe(seconds, this.a2aPeer(peer), method, outcome);
  }

  /**
   * A plugin counted an event (`api.count`). The plugin id comes from the plugins module, never from the plugin; the
   * event name is the plugin's, so names beyond MAX_PLUGIN_EVENT_NAMES per plugin, or not shaped like a name, are `other`.
   */
  pluginEvent(plugin: string, event: string, by: number): void {
    let names = this.pluginEventNames.get(plugin);
    if (!names) this.pluginEventNames.set(plugin, (names = new Set()));
    const known = names.has(event) || (PLUGIN_EVENT_NAME.test(event) && names.size < MAX_PLUGIN_EVENT_NAMES && names.add(event));
    this.pluginEvents.add(by, plugin, known ? event : OTHER);
  }

  /** A plugin's hook handler was skipped: it threw, or overran its budget. */
  pluginHookFailure(plugin: string, hook: string, reason: 'error' | 'timeout'): void {
    this.pluginHookFailures.inc(plugin, hook, reason);
  }

  /**
   * A chat channel's message in or out. The channel id comes from the channels module (a registered channel), the
   * account is one its `channels.<id>` section names or `default` (the caller maps others to `other`).
   */
  channelMessage(channel: string, account: string, direction: 'in' | 'out'): void {
    this.channelMessages.inc(channel, account, direction);
  }

  channelDeliveryFailure(channel: string, account: string): void {
    this.channelDeliveryFailures.inc(channel, account);
  }

  channelReconnect(channel: string, account: string): void {
    this.channelReconnects.inc(channel, account);
  }

  /** The memory module hands in how to read its index sizes; read at every scrape. */
  observeMemoryIndex(source: () => Promise<MemoryIndexStats[]>): void {
    this.memorySource = source;
  }

  /** The memory module hands in its count of chunks embedded, by embedder; read at every scrape. */
  observeMemoryEmbedded(source: () => ReadonlyMap<string, number>): void {
    this.embeddedSource = source;
  }

  /** The cluster's counters (Redis up, fallbacks, heartbeat failures), read at each scrape. */
  observeCluster(counts: ClusterCounts): void {
    registerClusterMetrics(this.registry, counts);
  }

  /** The Prometheus text format of every series, with every name or with the public ones only (public-series.ts). */
  text(view: MetricsView = 'every-name'): Promise<string> {
    return view === 'every-name' ? this.registry.metrics() : publicMetricsText(this.registry, this.publicNames());
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private async scrapeMemory(): Promise<void> {
    const stats = (await this.memorySource?.()) ?? [];
    for (const gauge of [this.defs.memoryChunks, this.defs.memoryPending, this.defs.memoryLag, this.defs.memoryAwaitingModel])
      gauge.reset();
    for (const s of stats) {
      const agent = this.agent(s.agentId);
      this.defs.memoryChunks.labels(agent).set(s.chunks);
      this.defs.memoryPending.labels(agent).set(s.pending);
      this.defs.memoryLag.labels(agent).set(s.lagMs / 1000);
      this.defs.memoryAwaitingModel.labels(agent).set(s.awaitingModel ?? 0);
    }
    // The count lives in the memory module; the counter shows it as it is at the scrape.
    this.defs.memoryEmbedded.reset();
    for (const [embedder, count] of this.embeddedSource?.() ?? []) this.defs.memoryEmbedded.labels(embedder).inc(count);
  }

  /** The names the public Agent Card shows: its agents, and only while the A2A channel (which serves it) is on. */
  private publicNames(): PublicNames {
    const config = this.snapshot()?.config;
    if (!config?.channels.a2a.enabled) return NO_PUBLIC_NAMES;
    let names = publicNamesByConfig.get(config);
    if (!names) publicNamesByConfig.set(config, (names = { agents: new Set(exposedAgents(config).map((a) => a.id)) }));
    return names;
  }

  private snapshot(): RuntimeSnapshot | undefined {
    return this.config?.isLoaded() ? this.config.current() : undefined;
  }

  private agent(id: string): string {
    return this.snapshot()?.agentsById.has(id) ? id : OTHER;
  }

  private provider(name: string): string {
    const providers = this.snapshot()?.config.models.providers;
    return providers && Object.prototype.hasOwnProperty.call(providers, name) ? name : OTHER;
  }

  /** A `provider/model` some agent runs on (model or fallback) or its provider's catalog lists; else `other`. */
  private modelRef(ref: string): string {
    const snapshot = this.snapshot();
    if (!snapshot) return OTHER;
    let known = modelRefsByConfig.get(snapshot.config);
    if (!known) modelRefsByConfig.set(snapshot.config, (known = configuredModelRefs(snapshot)));
    return known.has(ref) ? ref : OTHER;
  }

  private a2aPeer(name: string): string {
    const peers = this.snapshot()?.config.channels.a2a.peers;
    return peers && Object.prototype.hasOwnProperty.call(peers, name) ? name : OTHER;
  }

  /** A key of the OpenAI-compatible endpoint or of the MCP server. */
  private endpointKey(endpoint: 'openai' | 'mcp', name: string): string {
    const endpoints = this.snapshot()?.config.gateway.http.endpoints;
    const keys = (endpoint === 'openai' ? endpoints?.chatCompletions : endpoints?.mcp)?.keys ?? [];
    return keys.some((key) => key.name === name) ? name : OTHER;
  }
}
