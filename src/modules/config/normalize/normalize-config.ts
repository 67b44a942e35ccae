import { normalizeBudgets } from './budgets';
import { normalizeAgentId } from '../../../common/agent-id';
import { CONFIG_DEFAULTS } from '../config-defaults';
import type {
  A2aPeerSettings,
  NormalizedConfig,
  PluginsSettings,
  ResolvedAgent,
  ResolvedBinding,
  StateSettings,
  TlsSettings,
} from '../config.types';
import { toDottedPath } from '../pipeline/config-issue';
import { suggestClosest } from '../../../common/text/did-you-mean';
import type { AgentsConfig, AgentToolsConfig } from '../schema/agents.schema';
import type { ChannelsConfig } from '../schema/channels.schema';
import type { GatewayConfig } from '../schema/gateway.schema';
import type { GatewayTlsConfig } from '../schema/gateway-tls.schema';
import type { MemoryConfig } from '../schema/memory.schema';
import type { OpenClawConfig } from '../schema/openclaw.schema';
import type { PluginsConfig } from '../schema/plugins.schema';
import type { BindingConfig } from '../schema/routing.schema';
import { ModelRefResolver, normalizeModelCatalog } from './agent-models';
import { normalizeModelProviders } from './model-providers';
import { agentIdPath, normalizeAgents } from './normalize-agents';
import { NormalizeContext, resolveUserPath } from './normalize-context';
import { normalizeGatewayHttp } from './normalize-gateway-http';
import { normalizeGatewayAccess } from './normalize-gateway-auth';
import { normalizeMcp, warnUnknownMcpServers } from './normalize-mcp';
import { isProvidedOrPattern } from './openclaw-tool-catalog';
import { resolveToolPolicies, usesOpenClawToolPolicy } from './openclaw-tool-policy';
import { rejectSharedTokens } from './shared-tokens';
import { warnUnservedChannel } from './unserved-channel';

/** Channels this gateway has adapters for; bindings to others are kept with a warning. */
export const KNOWN_CHANNELS = ['a2a', 'http'] as const;

const NO_TOOLS: ReadonlySet<string> = new Set();

/** Fills every default, applies the compatibility aliases and checks cross-references. */
export function normalizeConfig(ctx: NormalizeContext, cfg: OpenClawConfig): NormalizedConfig {
  const mode = cfg.models?.mode ?? CONFIG_DEFAULTS.models.mode;
  // Plugins first: the model providers they declare are providers the agents' model references may name.
  const plugins = normalizePlugins(ctx, cfg.plugins);
  const pluginProviders = ctx.enabledPluginProviders?.(plugins) ?? NO_TOOLS;
  const providers = normalizeModelProviders(ctx, cfg.models?.providers, mode, pluginProviders);
  const catalog = normalizeModelCatalog(ctx, cfg.agents?.defaults?.models);
  const models = new ModelRefResolver(ctx, providers, catalog);
  const normalized = normalizeAgents(ctx, cfg.agents, (setting, path) => models.chain(setting, path));
  const { defaultAgentId } = normalized;
  const pluginTools = ctx.enabledPluginTools?.(plugins) ?? NO_TOOLS;
  // OpenClaw's tool policy (profiles, groups, top-level allow/deny) resolved into each agent's own lists.
  const agents = usesOpenClawToolPolicy(cfg) ? resolveToolPolicies(ctx, cfg, normalized.agents, pluginTools) : normalized.agents;
  const agentIds = agents.map((a) => a.id);
  warnUnknownTools(ctx, cfg.agents, pluginTools);
  const mcp = normalizeMcp(ctx, cfg.mcp);
  warnUnknownMcpServers(ctx, agents, mcp, ctx.enabledPluginMcpServers?.(plugins));

  return {
    gateway: normalizeGateway(ctx, cfg.gateway, agentIds),
    agents,
    defaultAgentId,
    bindings: normalizeBindings(ctx, cfg.bindings ?? CONFIG_DEFAULTS.bindings, agents, defaultAgentId, plugins),
    tools: {
      agentToAgent: {
        enabled: cfg.tools?.agentToAgent?.enabled ?? CONFIG_DEFAULTS.tools.agentToAgent.enabled,
        allow: [...(cfg.tools?.agentToAgent?.allow ?? CONFIG_DEFAULTS.tools.agentToAgent.allow)],
      },
      sessions: { visibility: cfg.tools?.sessions?.visibility ?? CONFIG_DEFAULTS.tools.sessions.visibility },
    },
    session: {
      dmScope: cfg.session?.dmScope ?? CONFIG_DEFAULTS.session.dmScope,
      mainKey: (cfg.session?.mainKey ?? CONFIG_DEFAULTS.session.mainKey).toLowerCase(),
      agentToAgent: {
        maxPingPongTurns: cfg.session?.agentToAgent?.maxPingPongTurns ?? CONFIG_DEFAULTS.session.agentToAgent.maxPingPongTurns,
        maxChainHops: cfg.session?.agentToAgent?.maxChainHops ?? CONFIG_DEFAULTS.session.agentToAgent.maxChainHops,
        keptExchanges: cfg.session?.agentToAgent?.keptExchanges ?? CONFIG_DEFAULTS.session.agentToAgent.keptExchanges,
      },
    },
    memory: normalizeMemory(ctx, cfg.memory),
    models: { mode, providers, aliases: catalog.aliases, allowed: catalog.allowed },
    channels: normalizeChannels(ctx, cfg.channels, agentIds),
    plugins,
    mcp,
    budgets: normalizeBudgets(ctx, cfg.budgets ?? CONFIG_DEFAULTS.budgets),
  };
}

/** `plugins`: defaults filled, load paths resolved like every other path of the file. */
function normalizePlugins(ctx: NormalizeContext, plugins: PluginsConfig | undefined): PluginsSettings {
  const entries: PluginsSettings['entries'] = {};
  for (const [id, entry] of plugins?.entries ?? []) {
    entries[id] = {
      ...(entry.enabled !== undefined ? { enabled: entry.enabled } : {}),
      ...(entry.config !== undefined ? { config: entry.config } : {}),
    };
  }
  return {
    enabled: plugins?.enabled ?? CONFIG_DEFAULTS.plugins.enabled,
    ...(plugins?.allow ? { allow: [...plugins.allow] } : {}),
    deny: [...(plugins?.deny ?? CONFIG_DEFAULTS.plugins.deny)],
    load: { paths: (plugins?.load?.paths ?? CONFIG_DEFAULTS.plugins.load.paths).map((p) => resolveUserPath(ctx, p)) },
    entries,
  };
}

/**
 * Warns once per list where it is written (agents.defaults.tools.allow, agents.list[0].tools.deny, ...),
 * so the path can be found in the file and an inherited defaults list is not reported once per agent.
 */
function warnUnknownTools(ctx: NormalizeContext, agents: AgentsConfig | undefined, pluginTools: ReadonlySet<string>): void {
  const owners: Array<[Array<string | number>, AgentToolsConfig | undefined]> = [
    [['agents', 'defaults'], agents?.defaults?.tools],
    ...(agents?.list ?? []).map((e, i): [Array<string | number>, AgentToolsConfig | undefined] => [['agents', 'list', i], e.tools]),
    ...[...(agents?.entries ?? [])].map(([id, e]): [Array<string | number>, AgentToolsConfig | undefined] => [
      ['agents', 'entries', id],
      e.tools,
    ]),
  ];
  for (const [owner, tools] of owners) {
    for (const key of ['allow', 'deny'] as const) {
      const list = [...owner, 'tools', key];
      const unknown = new Set<string>();
      (tools?.[key] ?? []).forEach((tool, i) => {
        if (!isProvidedOrPattern(tool, pluginTools)) unknown.add(ctx.quoter.quote([...list, i], tool));
      });
      if (unknown.size) {
        ctx.warnings.push({ path: toDottedPath(list), message: `tools not provided by this gateway are ignored: ${[...unknown].join(', ')}` });
      }
    }
  }
}

function normalizeGateway(ctx: NormalizeContext, g: GatewayConfig | undefined, agentIds: string[]): NormalizedConfig['gateway'] {
  const defaults = CONFIG_DEFAULTS.gateway;
  const sso = g?.admin?.sso;
  const admin: NormalizedConfig['gateway']['admin'] = {
      tokens: (g?.admin?.tokens ?? defaults.admin.tokens).map((t) => ({ name: t.name, token: t.token, role: t.role })),
      sso: {
        enabled: sso?.enabled ?? defaults.admin.sso.enabled,
        trustedProxies: [...(sso?.trustedProxies ?? defaults.admin.sso.trustedProxies)],
        userHeader: sso?.userHeader ?? defaults.admin.sso.userHeader,
        emailHeader: sso?.emailHeader ?? defaults.admin.sso.emailHeader,
        groupsHeader: sso?.groupsHeader ?? defaults.admin.sso.groupsHeader,
        jwt: sso?.jwt
          ? {
              header: sso.jwt.header ?? defaults.admin.sso.jwt.header,
              jwksUrl: sso.jwt.jwksUrl,
              issuer: sso.jwt.issuer,
              audience: sso.jwt.audience,
              algorithms: sso.jwt.algorithms,
            }
          : undefined,
        roleMapping: { ...(sso?.roleMapping ?? defaults.admin.sso.roleMapping) },
        defaultRole: sso?.defaultRole ?? defaults.admin.sso.defaultRole,
      },
      publicDocs: g?.admin?.publicDocs ?? defaults.admin.publicDocs,
  };
  const access = normalizeGatewayAccess(ctx, g, admin);
  return {
    port: g?.port ?? defaults.port,
    bind: access.bind,
    auth: access.auth,
    trustedProxies: [...(g?.trustedProxies ?? defaults.trustedProxies)],
    publicUrl: g?.publicUrl,
    reload: { mode: g?.reload?.mode ?? defaults.reload.mode, debounceMs: g?.reload?.debounceMs ?? defaults.reload.debounceMs },
    tls: normalizeGatewayTls(ctx, g?.tls),
    drainMs: g?.drainMs ?? defaults.drainMs,
    admin: access.admin,
    http: normalizeGatewayHttp(ctx, g?.http, agentIds),
    telemetry: {
      enabled: g?.telemetry?.enabled ?? defaults.telemetry.enabled,
      ...(g?.telemetry?.serviceName !== undefined ? { serviceName: g.telemetry.serviceName.trim() } : {}),
      ...(g?.telemetry?.sampleRatio !== undefined ? { sampleRatio: g.telemetry.sampleRatio } : {}),
    },
    metrics: {
      tokenRequired: g?.metrics?.token !== undefined || ctx.unusableSecretPaths.has('gateway.metrics.token'),
      ...(g?.metrics?.token !== undefined ? { token: g.metrics.token } : {}),
    },
    state: normalizeState(ctx, g?.state),
    ...(g?.cluster
      ? {
          cluster: {
            redis: {
              url: g.cluster.redis.url.trim(),
              ...(g.cluster.redis.password !== undefined ? { password: g.cluster.redis.password } : {}),
            },
          },
        }
      : {}),
  };
}

/**
 * `gateway.tls`: on, it needs both files (their paths resolved like every path of the file; they are read when the
 * listener starts). OpenClaw's `autoGenerate` makes a self-signed pair; clawgate has no certificate maker, so
 * asking for one is an error that says how to make the files, never a silent fall back to plain HTTP.
 */
function normalizeGatewayTls(ctx: NormalizeContext, tls: GatewayTlsConfig | undefined): TlsSettings {
  if (tls?.autoGenerate) {
    ctx.errors.push({
      path: 'gateway.tls.autoGenerate',
      message:
        'clawgate does not generate certificates; make a pair (e.g. `openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 365 -subj /CN=localhost`) and set certPath and keyPath',
    });
  }
  if (!(tls?.enabled ?? CONFIG_DEFAULTS.gateway.tls.enabled)) return { enabled: false };
  const missing = (['certPath', 'keyPath'] as const).filter((key) => tls?.[key] === undefined);
  for (const key of missing) ctx.errors.push({ path: `gateway.tls.${key}`, message: 'is required when gateway.tls.enabled is true' });
  if (missing.length || !tls?.certPath || !tls.keyPath) return { enabled: false };
  return {
    enabled: true,
    certPath: resolveUserPath(ctx, tls.certPath),
    keyPath: resolveUserPath(ctx, tls.keyPath),
    ...(tls.caPath ? { caPath: resolveUserPath(ctx, tls.caPath) } : {}),
  };
}

/** The postgres backend needs its URL; sqlite ignores one (so a template can carry `${DATABASE_URL}` either way). */
function normalizeState(ctx: NormalizeContext, state: GatewayConfig['state']): StateSettings {
  const backend = state?.backend ?? CONFIG_DEFAULTS.gateway.state.backend;
  if (backend === 'sqlite') return { backend };
  if (state?.url === undefined) {
    const unset = ctx.unusableSecretPaths.has('gateway.state.url');
    ctx.errors.push({
      path: 'gateway.state.url',
      message: unset
        ? 'is required with backend "postgres", and its environment variable is not set'
        : 'is required with backend "postgres" (a postgres:// URL, normally "${DATABASE_URL}")',
    });
    return { backend: 'sqlite' };
  }
  return { backend, url: state.url };
}

/**
 * A binding naming an agent that does not exist goes to the default agent, as OpenClaw routes it
 * (`pickFirstExistingAgentId`: OpenClaw's docs bind `main`, its default agent's name, in files that list other
 * agents), with a warning. A name close to an agent's is a typo, not that case: an error with did-you-mean.
 */
function normalizeBindings(
  ctx: NormalizeContext,
  bindings: readonly BindingConfig[],
  agents: readonly ResolvedAgent[],
  defaultAgentId: string,
  plugins: PluginsSettings,
): ResolvedBinding[] {
  const known = new Set<string>(KNOWN_CHANNELS);
  const pluginChannels = ctx.pluginChannels?.(plugins) ?? new Map<string, { plugin: string; off?: string }>();
  for (const [channel, provider] of pluginChannels) if (!provider.off) known.add(channel);
  const agentIds = agents.map((a) => a.id);
  const out: ResolvedBinding[] = [];
  bindings.forEach((b, index) => {
    const at = `bindings[${index}]`;
    let agentId = normalizeAgentId(b.agentId);
    if (!agentIds.includes(agentId)) {
      const hint = agents.find((a) => a.id === suggestClosest(agentId, agentIds));
      const written = ctx.quoter.quote(`${at}.agentId`, b.agentId);
      if (hint) {
        const didYouMean = ` (did you mean ${ctx.quoter.quote(agentIdPath(hint.source), hint.id)}?)`;
        ctx.errors.push({ path: `${at}.agentId`, message: `unknown agent ${written}${didYouMean}` });
        return;
      }
      ctx.warnings.push({
        path: `${at}.agentId`,
        message: `no agent ${written}: the binding routes to the default agent "${defaultAgentId}", as OpenClaw routes it`,
      });
      agentId = defaultAgentId;
    }
    const { account, accountId, channel, peer, guildId, teamId } = b.match;
    if (account !== undefined) {
      if (accountId !== undefined && accountId !== account) {
        ctx.errors.push({
          path: `${at}.match.account`,
          message: `conflicts with accountId ${ctx.quoter.quote(`${at}.match.accountId`, accountId)}; keep only accountId`,
        });
        return;
      }
      ctx.warnings.push({ path: `${at}.match.account`, message: 'is deprecated; use accountId (applied as accountId)' });
    }
    if (!known.has(channel)) warnUnservedChannel(ctx, `${at}.match.channel`, channel, pluginChannels.get(channel));
    out.push({
      index,
      agentId,
      match: {
        channel,
        ...((accountId ?? account) ? { accountId: accountId ?? account } : {}),
        ...(peer ? { peer: { kind: peer.kind, id: peer.id } } : {}),
        ...(guildId ? { guildId } : {}),
        ...(teamId ? { teamId } : {}),
      },
    });
  });
  return out;
}

function normalizeMemory(ctx: NormalizeContext, m: MemoryConfig | undefined): NormalizedConfig['memory'] {
  const defaults = CONFIG_DEFAULTS.memory;
  const qmd = m?.qmd;
  if (qmd?.indexSessions !== undefined) {
    if (qmd.sessions?.enabled !== undefined && qmd.sessions.enabled !== qmd.indexSessions) {
      ctx.errors.push({
        path: 'memory.qmd.indexSessions',
        message: 'conflicts with memory.qmd.sessions.enabled; keep only sessions.enabled',
      });
    } else {
      ctx.warnings.push({ path: 'memory.qmd.indexSessions', message: 'is deprecated; use memory.qmd.sessions.enabled (applied)' });
    }
  }
  const paths = (qmd?.paths ?? defaults.qmd.paths).flatMap((p, i) => {
    const isRelative = !p.path.startsWith('/') && !p.path.startsWith('~');
    if (!isRelative && !p.name) {
      ctx.errors.push({
        path: `memory.qmd.paths[${i}].name`,
        message: `is required because ${ctx.quoter.quote(`memory.qmd.paths[${i}].path`, p.path)} lies outside the agent workspaces`,
      });
      return [];
    }
    const dir = isRelative ? p.path : resolveUserPath(ctx, p.path);
    return [{ path: dir, name: p.name ?? p.path.replace(/[^A-Za-z0-9._-]+/g, '-'), ...(p.pattern ? { pattern: p.pattern } : {}) }];
  });
  return {
    backend: m?.backend ?? defaults.backend,
    citations: m?.citations ?? defaults.citations,
    qmd: {
      includeDefaultMemory: qmd?.includeDefaultMemory ?? defaults.qmd.includeDefaultMemory,
      sessionsEnabled: qmd?.sessions?.enabled ?? qmd?.indexSessions ?? defaults.qmd.sessions.enabled,
      paths,
      debounceMs: qmd?.update?.debounceMs ?? defaults.qmd.update.debounceMs,
      maxResults: qmd?.limits?.maxResults ?? defaults.qmd.limits.maxResults,
      maxSnippetChars: qmd?.limits?.maxSnippetChars ?? defaults.qmd.limits.maxSnippetChars,
      minScore: qmd?.limits?.minScore ?? defaults.qmd.limits.minScore,
    },
    embeddings: {
      provider: m?.embeddings?.provider ?? defaults.embeddings.provider,
      baseUrl: m?.embeddings?.baseUrl,
      apiKey: m?.embeddings?.apiKey,
      model: m?.embeddings?.model,
      workers: m?.embeddings?.workers ?? defaults.embeddings.workers,
      rerank: m?.embeddings?.rerank ?? defaults.embeddings.rerank,
    },
  };
}

function normalizeChannels(ctx: NormalizeContext, c: ChannelsConfig | undefined, agentIds: string[]): NormalizedConfig['channels'] {
  const defaults = CONFIG_DEFAULTS.channels;
  const a2a = c?.a2a;
  const peers: Record<string, A2aPeerSettings> = {};
  for (const [name, peer] of a2a?.peers ?? []) {
    peers[name] = {
      name,
      token: peer.token,
      url: peer.url,
      outboundToken: peer.outboundToken,
      protocolVersion: peer.protocolVersion ?? CONFIG_DEFAULTS.each.a2aPeer.protocolVersion,
      pushUrls: peer.pushUrls ?? [...CONFIG_DEFAULTS.each.a2aPeer.pushUrls],
      trustBudget: peer.trustBudget ?? CONFIG_DEFAULTS.each.a2aPeer.trustBudget,
      usable: !!peer.token,
    };
  }
  rejectSharedTokens(ctx, 'channels.a2a.peers', Object.values(peers));
  const exposeAgents = a2a?.exposeAgents?.length ? a2a.exposeAgents.map(normalizeAgentId) : null;
  exposeAgents?.forEach((id, i) => {
    const at = `channels.a2a.exposeAgents[${i}]`;
    if (!agentIds.includes(id)) ctx.warnings.push({ path: at, message: `unknown agent ${ctx.quoter.quote(at, id)} is not published` });
  });
  const accounts: NormalizedConfig['channels']['http']['accounts'] = {};
  for (const [id, account] of c?.http?.accounts ?? []) {
    accounts[id] = { id, token: account.token, webhookUrl: account.webhookUrl, usable: !!account.token };
  }
  rejectSharedTokens(
    ctx,
    'channels.http.accounts',
    Object.values(accounts).map((a) => ({ name: a.id, token: a.token })),
  );
  return {
    a2a: {
      enabled: a2a?.enabled ?? defaults.a2a.enabled,
      advertisedUrl: a2a?.advertisedUrl?.replace(/\/+$/, ''),
      replyTimeoutMs: a2a?.replyTimeoutMs ?? defaults.a2a.replyTimeoutMs,
      inputTimeoutMs: a2a?.inputTimeoutMs ?? defaults.a2a.inputTimeoutMs,
      rateLimitPerMinute: a2a?.rateLimitPerMinute ?? defaults.a2a.rateLimitPerMinute,
      keptTasksPerPeer: a2a?.keptTasksPerPeer ?? defaults.a2a.keptTasksPerPeer,
      exposeAgents,
      peers,
      files: {
        maxBytes: a2a?.files?.maxBytes ?? defaults.a2a.files.maxBytes,
        mediaTypes: (a2a?.files?.mediaTypes ?? defaults.a2a.files.mediaTypes).map((t) => t.toLowerCase()),
      },
    },
    http: { enabled: c?.http?.enabled ?? defaults.http.enabled, accounts },
  };
}
