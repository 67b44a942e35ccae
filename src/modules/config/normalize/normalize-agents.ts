import * as path from 'node:path';
import { DEFAULT_AGENT_ID, normalizeAgentId } from '../../../common/agent-id';
import { CONFIG_DEFAULTS } from '../config-defaults';
import type { MemoryCollectionSettings, ResolvedAgent, SubagentLimit, SubagentLimits } from '../config.types';
import { toDottedPath } from '../pipeline/config-issue';
import { RESERVED_KEY_NAMES } from '../pipeline/reserved-keys';
import type { AgentDefaultsConfig, AgentMapEntryConfig, AgentsConfig, MemoryCollectionConfig } from '../schema/agents.schema';
import type { ModelSettingConfig } from '../schema/model-setting';
import type { ModelChain } from './agent-models';
import { isInside, NormalizeContext, resolveUserPath } from './normalize-context';
import { TOOL_GROUPS } from './openclaw-tool-catalog';

/** Used when neither the agent nor `agents.defaults` names a model: runs offline, needs no key. */
export const FALLBACK_MODEL = CONFIG_DEFAULTS.agents.defaults.model;

type Source = Array<string | number>;
interface RawAgent {
  rawId: string;
  entry: AgentMapEntryConfig;
  source: Source;
}

/**
 * Turns `agents.list` or `agents.entries` into resolved agents: ids normalized (duplicates are errors),
 * `agents.defaults` merged field by field, paths made absolute, the default agent chosen.
 */
export function normalizeAgents(
  ctx: NormalizeContext,
  agents: AgentsConfig | undefined,
  resolveModel: (setting: ModelSettingConfig, path: string) => ModelChain,
): { agents: ResolvedAgent[]; defaultAgentId: string } {
  const raw = collectEntries(ctx, agents);
  const defaults = agents?.defaults ?? {};
  const seen = new Map<string, Source>();
  const resolved: ResolvedAgent[] = [];
  // The defaults' model is resolved (and checked) once, where it is written, if any agent inherits from it: an agent
  // without a model of its own, or with one that leaves its fallbacks to the defaults (a string, or no fallbacks key).
  const inherits = raw.length === 0 || raw.some((r) => !ownsFallbacks(r.entry.model));
  const inherited: ModelChain =
    defaults.model !== undefined && inherits ? resolveModel(defaults.model, 'agents.defaults.model') : { primary: FALLBACK_MODEL };

  // Known before any agent is resolved: the default agent's workspace is agents.defaults.workspace itself.
  const defaultId = normalizeAgentId((raw.find((r) => r.entry.default) ?? raw[0])?.rawId ?? DEFAULT_AGENT_ID);
  for (const { rawId, entry, source } of raw) {
    const id = normalizeAgentId(rawId);
    const idPath = agentIdPath(source);
    // The same rule as for keys, so an agent means the same in agents.list and in agents.entries.
    if (RESERVED_KEY_NAMES.has(id)) {
      ctx.errors.push({ path: idPath, message: `agent id ${ctx.quoter.quote(idPath, id)} is a reserved name` });
      continue;
    }
    const earlier = seen.get(id);
    if (earlier) {
      ctx.errors.push({
        path: idPath,
        message: `duplicate agent id ${ctx.quoter.quote(idPath, id)} (after normalization; also at ${toDottedPath(earlier)})`,
      });
      continue;
    }
    seen.set(id, source);
    const own = entry.model !== undefined ? resolveModel(entry.model, toDottedPath([...source, 'model'])) : undefined;
    resolved.push(resolveAgent(ctx, id, id === defaultId, entry, defaults, source, modelOf(own, inherited)));
  }

  if (resolved.length === 0) {
    resolved.push(resolveAgent(ctx, DEFAULT_AGENT_ID, true, {}, defaults, ['agents'], modelOf(undefined, inherited)));
  }
  const isFlagged = (id: string) => raw.find((r) => normalizeAgentId(r.rawId) === id)?.entry.default ?? CONFIG_DEFAULTS.each.agent.default;
  const flagged = resolved.filter((a) => isFlagged(a.id));
  if (flagged.length > 1) {
    const [used, ...others] = flagged.map((a) => ctx.quoter.quote(agentIdPath(a.source), a.id));
    ctx.warnings.push({
      path: 'agents',
      message: `several agents have default: true (${[used, ...others].join(', ')}); ${used} is used`,
    });
  }
  const defaultAgent = flagged[0] ?? resolved[0];
  defaultAgent.isDefault = true;
  return { agents: resolved, defaultAgentId: defaultAgent.id };
}

/**
 * An agent without a workspace of its own, as OpenClaw places it (resolveAgentWorkspaceDir): the default agent works
 * in agents.defaults.workspace itself (`~/.openclaw/workspace` in OpenClaw's own files), every other agent in
 * `<that>/<id>`; without agents.defaults.workspace, `<stateDir>/workspace-<id>`.
 */
function inheritedWorkspace(ctx: NormalizeContext, id: string, isDefault: boolean, parent: string | undefined): string {
  if (!parent) return path.join(ctx.stateDir, `workspace-${id}`);
  const dir = resolveUserPath(ctx, parent);
  return isDefault ? dir : path.join(dir, id);
}

/** Where an agent's id is written: its `id` in agents.list, its key in agents.entries. */
export function agentIdPath(source: ReadonlyArray<string | number>): string {
  return toDottedPath(source[1] === 'list' ? [...source, 'id'] : source);
}

function collectEntries(ctx: NormalizeContext, agents: AgentsConfig | undefined): RawAgent[] {
  if (agents?.list && agents.entries) {
    ctx.errors.push({ path: 'agents.entries', message: 'use either agents.list or agents.entries, not both' });
    return [];
  }
  if (agents?.entries) {
    return [...agents.entries].map(([id, entry]) => ({ rawId: id, entry, source: ['agents', 'entries', id] }));
  }
  return (agents?.list ?? CONFIG_DEFAULTS.agents.list).map((entry, i) => ({ rawId: entry.id, entry, source: ['agents', 'list', i] }));
}

/** OpenClaw: an agent's string model overrides the primary only; `{ primary, fallbacks }` both (`[]`: none). */
function ownsFallbacks(model: ModelSettingConfig | undefined): boolean {
  return typeof model === 'object' && model.fallbacks !== undefined;
}

function modelOf(own: ModelChain | undefined, inherited: ModelChain): { model: string; fallbacks: string[] } {
  const model = own?.primary ?? inherited.primary;
  const fallbacks = own?.fallbacks ?? inherited.fallbacks ?? [];
  return { model, fallbacks: fallbacks.filter((f) => f !== model) };
}

function resolveAgent(
  ctx: NormalizeContext,
  id: string,
  isDefault: boolean,
  entry: AgentMapEntryConfig,
  defaults: AgentDefaultsConfig,
  source: Source,
  models: { model: string; fallbacks: string[] },
): ResolvedAgent {
  const workspace = entry.workspace ? resolveUserPath(ctx, entry.workspace) : inheritedWorkspace(ctx, id, isDefault, defaults.workspace);
  const agentDir = entry.agentDir ? resolveUserPath(ctx, entry.agentDir) : path.join(ctx.stateDir, 'agents', id, 'agent');
  const collections = [
    ...resolveCollections(ctx, defaults.memorySearch?.qmd?.extraCollections, workspace, ['agents', 'defaults']),
    ...resolveCollections(ctx, entry.memorySearch?.qmd?.extraCollections, workspace, source),
  ];
  return {
    id,
    isDefault: false,
    name: entry.name,
    workspace,
    agentDir,
    sessionsDir: path.join(ctx.stateDir, 'agents', id, 'sessions'),
    model: models.model,
    fallbacks: models.fallbacks,
    identity: { ...(entry.identity ?? CONFIG_DEFAULTS.each.agent.identity) },
    description: entry.description,
    sandbox: {
      mode: entry.sandbox?.mode ?? defaults.sandbox?.mode ?? CONFIG_DEFAULTS.agents.defaults.sandbox.mode,
      scope: entry.sandbox?.scope ?? defaults.sandbox?.scope,
    },
    tools: {
      allow: [...(entry.tools?.allow ?? defaults.tools?.allow ?? CONFIG_DEFAULTS.agents.defaults.tools.allow)],
      deny: [...(entry.tools?.deny ?? defaults.tools?.deny ?? CONFIG_DEFAULTS.agents.defaults.tools.deny)],
    },
    extraCollections: dedupeByName(collections),
    approvals: {
      tools: approvalPatterns(ctx, entry, defaults, source),
      timeoutMs:
        entry.tools?.approvalTimeoutMs ?? defaults.tools?.approvalTimeoutMs ?? CONFIG_DEFAULTS.agents.defaults.tools.approvalTimeoutMs,
      approvers: [...(entry.tools?.approvers ?? defaults.tools?.approvers ?? [])],
    },
    subagents: {
      maxSpawnDepth: subagentLimit('maxSpawnDepth', entry, defaults, source),
      maxChildrenPerAgent: subagentLimit('maxChildrenPerAgent', entry, defaults, source),
    },
    source,
  };
}

/**
 * The agent's `tools.requiresApproval` (else agents.defaults'), `group:<name>` entries as the tools they stand for. A group
 * that does not exist is an error: a list meant to stop something must not silently stop nothing.
 */
function approvalPatterns(ctx: NormalizeContext, entry: AgentMapEntryConfig, defaults: AgentDefaultsConfig, source: Source): string[] {
  const own = entry.tools?.requiresApproval;
  const entries = own ?? defaults.tools?.requiresApproval ?? [];
  const at = own ? toDottedPath([...source, 'tools', 'requiresApproval']) : 'agents.defaults.tools.requiresApproval';
  const unknown = entries.filter((e) => e.startsWith('group:') && !TOOL_GROUPS[e]);
  for (const group of unknown) {
    if (ctx.errors.some((e) => e.path === at && e.message.includes(group))) continue;
    ctx.errors.push({ path: at, message: `unknown tool group "${group}"; known: ${Object.keys(TOOL_GROUPS).join(', ')}` });
  }
  return [...new Set(entries.flatMap((e) => TOOL_GROUPS[e] ?? [e]))];
}

/** The agent's own limit, else agents.defaults', else OpenClaw's default; with the key it came from. */
function subagentLimit(
  name: keyof SubagentLimits,
  entry: AgentMapEntryConfig,
  defaults: AgentDefaultsConfig,
  source: Source,
): SubagentLimit {
  const own = entry.subagents?.[name];
  if (own !== undefined) return { value: own, key: toDottedPath([...source, 'subagents', name]) };
  const key = `agents.defaults.subagents.${name}`;
  return { value: defaults.subagents?.[name] ?? CONFIG_DEFAULTS.agents.defaults.subagents[name], key };
}

/**
 * extraCollections of `agents.defaults` and of the agent are both kept (defaults first): the defaults
 * grant something to every agent, the entry adds its own. Paths are relative to the agent workspace.
 */
function resolveCollections(
  ctx: NormalizeContext,
  list: readonly MemoryCollectionConfig[] | undefined,
  workspace: string,
  owner: Source,
): MemoryCollectionSettings[] {
  return (list ?? CONFIG_DEFAULTS.agents.defaults.memorySearch.qmd.extraCollections).flatMap((c, i) => {
    const dir = resolveUserPath(ctx, c.path, workspace);
    const inside = isInside(workspace, dir);
    if (!c.name && !inside) {
      const entry = [...owner, 'memorySearch', 'qmd', 'extraCollections', i];
      const at = toDottedPath([...entry, 'name']);
      if (!ctx.errors.some((e) => e.path === at)) {
        ctx.errors.push({
          path: at,
          message: `is required because ${ctx.quoter.quote([...entry, 'path'], c.path)} lies outside the agent workspace (a name makes the grant explicit)`,
        });
      }
      return [];
    }
    const name = c.name ?? (path.relative(workspace, dir).replace(/[^A-Za-z0-9._-]+/g, '-') || 'workspace');
    return [{ path: dir, name, ...(c.pattern ? { pattern: c.pattern } : {}) }];
  });
}

function dedupeByName(collections: MemoryCollectionSettings[]): MemoryCollectionSettings[] {
  const byName = new Map<string, MemoryCollectionSettings>();
  for (const c of collections) byName.set(c.name, c);
  return [...byName.values()];
}
