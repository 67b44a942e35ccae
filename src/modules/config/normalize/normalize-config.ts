import { normalizeAgentId } from '../../../common/agent-id';
import { BUILT_IN_TOOL_NAMES } from '../../../common/built-in-tools';
import type { A2aPeerSettings, NormalizedConfig, ResolvedBinding } from '../config.types';
import { toDottedPath } from '../pipeline/config-issue';
import { suggestClosest } from '../../../common/text/did-you-mean';
import type { AgentsConfig, AgentToolsConfig } from '../schema/agents.schema';
import type { ChannelsConfig } from '../schema/channels.schema';
import type { GatewayConfig } from '../schema/gateway.schema';
import type { MemoryConfig } from '../schema/memory.schema';
import type { OpenClawConfig } from '../schema/openclaw.schema';
import type { BindingConfig } from '../schema/routing.schema';
import { checkModelRef, normalizeModelProviders } from './model-providers';
import { normalizeAgents } from './normalize-agents';
import { NormalizeContext, resolveUserPath } from './normalize-context';

/** Channels this gateway has adapters for; bindings to others are kept with a warning. */
export const KNOWN_CHANNELS = ['a2a', 'http'] as const;

/** Fills every default, applies the compatibility aliases and checks cross-references. */
export function normalizeConfig(ctx: NormalizeContext, cfg: OpenClawConfig): NormalizedConfig {
  const providers = normalizeModelProviders(ctx, cfg.models?.providers);
  const { agents, defaultAgentId } = normalizeAgents(ctx, cfg.agents, (model, path) =>
    checkModelRef(ctx, providers, model, path),
  );
  const agentIds = agents.map((a) => a.id);
  warnUnknownTools(ctx, cfg.agents);

  return {
    gateway: normalizeGateway(cfg.gateway),
    agents,
    defaultAgentId,
    bindings: normalizeBindings(ctx, cfg.bindings ?? [], agentIds),
    tools: {
      agentToAgent: {
        enabled: cfg.tools?.agentToAgent?.enabled === true,
        allow: [...(cfg.tools?.agentToAgent?.allow ?? [])],
      },
      sessions: { visibility: cfg.tools?.sessions?.visibility ?? 'tree' },
    },
    session: {
      dmScope: cfg.session?.dmScope ?? 'main',
      mainKey: (cfg.session?.mainKey ?? 'main').toLowerCase(),
      agentToAgent: {
        maxPingPongTurns: cfg.session?.agentToAgent?.maxPingPongTurns ?? 5,
        maxChainHops: cfg.session?.agentToAgent?.maxChainHops ?? 8,
      },
    },
    memory: normalizeMemory(ctx, cfg.memory),
    models: { providers },
    channels: normalizeChannels(ctx, cfg.channels, agentIds),
  };
}

/**
 * Warns once per list where it is written (agents.defaults.tools.allow, agents.list[0].tools.deny, ...),
 * so the path can be found in the file and an inherited defaults list is not reported once per agent.
 */
function warnUnknownTools(ctx: NormalizeContext, agents: AgentsConfig | undefined): void {
  const known = new Set<string>(BUILT_IN_TOOL_NAMES);
  const owners: Array<[Array<string | number>, AgentToolsConfig | undefined]> = [
    [['agents', 'defaults'], agents?.defaults?.tools],
    ...(agents?.list ?? []).map((e, i): [Array<string | number>, AgentToolsConfig | undefined] => [['agents', 'list', i], e.tools]),
    ...[...(agents?.entries ?? [])].map(([id, e]): [Array<string | number>, AgentToolsConfig | undefined] => [['agents', 'entries', id], e.tools]),
  ];
  for (const [owner, tools] of owners) {
    for (const key of ['allow', 'deny'] as const) {
      const unknown = (tools?.[key] ?? []).filter((t) => !known.has(t));
      if (unknown.length) {
        ctx.warnings.push({
          path: toDottedPath([...owner, 'tools', key]),
          message: `tools not provided by this gateway are ignored: ${[...new Set(unknown)].join(', ')}`,
        });
      }
    }
  }
}

function normalizeGateway(g: GatewayConfig | undefined): NormalizedConfig['gateway'] {
  const sso = g?.admin?.sso;
  return {
    port: g?.port ?? 18789,
    bind: g?.bind ?? '127.0.0.1',
    trustedProxies: [...(g?.trustedProxies ?? [])],
    publicUrl: g?.publicUrl,
    reload: { mode: g?.reload?.mode ?? 'hybrid', debounceMs: g?.reload?.debounceMs ?? 300 },
    admin: {
      tokens: (g?.admin?.tokens ?? []).map((t) => ({ name: t.name, token: t.token, role: t.role })),
      sso: {
        enabled: sso?.enabled === true,
        trustedProxies: [...(sso?.trustedProxies ?? [])],
        userHeader: sso?.userHeader ?? 'X-Forwarded-User',
        emailHeader: sso?.emailHeader ?? 'X-Forwarded-Email',
        groupsHeader: sso?.groupsHeader ?? 'X-Forwarded-Groups',
        jwt: sso?.jwt
          ? {
              header: sso.jwt.header ?? 'X-Forwarded-Access-Token',
              jwksUrl: sso.jwt.jwksUrl,
              issuer: sso.jwt.issuer,
              audience: sso.jwt.audience,
              algorithms: sso.jwt.algorithms,
            }
          : undefined,
        roleMapping: { ...(sso?.roleMapping ?? {}) },
        defaultRole: sso?.defaultRole ?? 'none',
      },
      publicDocs: g?.admin?.publicDocs === true,
    },
  };
}

function normalizeBindings(ctx: NormalizeContext, bindings: BindingConfig[], agentIds: string[]): ResolvedBinding[] {
  const known = new Set<string>(KNOWN_CHANNELS);
  const out: ResolvedBinding[] = [];
  bindings.forEach((b, index) => {
    const at = `bindings[${index}]`;
    const agentId = normalizeAgentId(b.agentId);
    if (!agentIds.includes(agentId)) {
      const hint = suggestClosest(agentId, agentIds);
      ctx.errors.push({
        path: `${at}.agentId`,
        message: `unknown agent "${b.agentId}"${hint ? ` (did you mean "${hint}"?)` : ''}`,
      });
      return;
    }
    const { account, accountId, channel, peer, guildId, teamId } = b.match;
    if (account !== undefined) {
      if (accountId !== undefined && accountId !== account) {
        ctx.errors.push({ path: `${at}.match.account`, message: `conflicts with accountId "${accountId}"; keep only accountId` });
        return;
      }
      ctx.warnings.push({ path: `${at}.match.account`, message: 'is deprecated; use accountId (applied as accountId)' });
    }
    if (!known.has(channel)) {
      ctx.warnings.push({
        path: `${at}.match.channel`,
        message: `no adapter for channel "${channel}" in this gateway; the binding is kept but receives nothing`,
      });
    }
    out.push({
      index,
      agentId,
      match: {
        channel,
        ...(accountId ?? account ? { accountId: accountId ?? account } : {}),
        ...(peer ? { peer: { kind: peer.kind, id: peer.id } } : {}),
        ...(guildId ? { guildId } : {}),
        ...(teamId ? { teamId } : {}),
      },
    });
  });
  return out;
}

function normalizeMemory(ctx: NormalizeContext, m: MemoryConfig | undefined): NormalizedConfig['memory'] {
  const qmd = m?.qmd;
  if (qmd?.indexSessions !== undefined) {
    if (qmd.sessions?.enabled !== undefined && qmd.sessions.enabled !== qmd.indexSessions) {
      ctx.errors.push({ path: 'memory.qmd.indexSessions', message: 'conflicts with memory.qmd.sessions.enabled; keep only sessions.enabled' });
    } else {
      ctx.warnings.push({ path: 'memory.qmd.indexSessions', message: 'is deprecated; use memory.qmd.sessions.enabled (applied)' });
    }
  }
  const paths = (qmd?.paths ?? []).flatMap((p, i) => {
    const isRelative = !p.path.startsWith('/') && !p.path.startsWith('~');
    if (!isRelative && !p.name) {
      ctx.errors.push({
        path: `memory.qmd.paths[${i}].name`,
        message: `is required because ${JSON.stringify(p.path)} lies outside the agent workspaces`,
      });
      return [];
    }
    const dir = isRelative ? p.path : resolveUserPath(ctx, p.path);
    return [{ path: dir, name: p.name ?? p.path.replace(/[^A-Za-z0-9._-]+/g, '-'), ...(p.pattern ? { pattern: p.pattern } : {}) }];
  });
  return {
    backend: m?.backend ?? 'builtin',
    citations: m?.citations ?? 'auto',
    qmd: {
      includeDefaultMemory: qmd?.includeDefaultMemory ?? true,
      sessionsEnabled: qmd?.sessions?.enabled ?? qmd?.indexSessions ?? false,
      paths,
      debounceMs: qmd?.update?.debounceMs ?? 1500,
      maxResults: qmd?.limits?.maxResults ?? 6,
      maxSnippetChars: qmd?.limits?.maxSnippetChars ?? 700,
    },
    embeddings: {
      provider: m?.embeddings?.provider ?? 'bundled',
      baseUrl: m?.embeddings?.baseUrl,
      apiKey: m?.embeddings?.apiKey,
      model: m?.embeddings?.model,
    },
  };
}

function normalizeChannels(ctx: NormalizeContext, c: ChannelsConfig | undefined, agentIds: string[]): NormalizedConfig['channels'] {
  const a2a = c?.a2a;
  const peers: Record<string, A2aPeerSettings> = {};
  for (const [name, peer] of a2a?.peers ?? []) {
    peers[name] = { name, token: peer.token, url: peer.url, outboundToken: peer.outboundToken, usable: !!peer.token };
  }
  rejectSharedTokens(ctx, 'channels.a2a.peers', Object.values(peers));
  const exposeAgents = a2a?.exposeAgents?.length ? a2a.exposeAgents.map(normalizeAgentId) : null;
  exposeAgents?.forEach((id, i) => {
    if (!agentIds.includes(id)) {
      ctx.warnings.push({ path: `channels.a2a.exposeAgents[${i}]`, message: `unknown agent "${id}" is not published` });
    }
  });
  const accounts: NormalizedConfig['channels']['http']['accounts'] = {};
  for (const [id, account] of c?.http?.accounts ?? []) {
    accounts[id] = { id, token: account.token, webhookUrl: account.webhookUrl, usable: !!account.token };
  }
  rejectSharedTokens(ctx, 'channels.http.accounts', Object.values(accounts).map((a) => ({ name: a.id, token: a.token })));
  return {
    a2a: {
      enabled: a2a?.enabled === true,
      advertisedUrl: a2a?.advertisedUrl?.replace(/\/+$/, ''),
      replyTimeoutMs: a2a?.replyTimeoutMs ?? 120_000,
      rateLimitPerMinute: a2a?.rateLimitPerMinute ?? 30,
      exposeAgents,
      peers,
    },
    http: { enabled: c?.http?.enabled === true, accounts },
  };
}

/** A token shared by two callers would make the caller's identity ambiguous. */
function rejectSharedTokens(ctx: NormalizeContext, at: string, entries: Array<{ name: string; token?: string }>): void {
  const owner = new Map<string, string>();
  for (const { name, token } of entries) {
    if (!token) continue;
    const first = owner.get(token);
    if (first) {
      ctx.errors.push({ path: `${at}.${name}.token`, message: `is the same as the token of "${first}"; every caller needs its own token` });
    } else owner.set(token, name);
  }
}
