import { BUILT_IN_TOOL_NAMES } from '../../../common/built-in-tools';
import { isMcpToolEntry } from '../../../common/mcp-tool-policy';
import { suggestClosest } from '../../../common/text/did-you-mean';
import type { ResolvedAgent } from '../config.types';
import { toDottedPath } from '../pipeline/config-issue';
import type { AgentMapEntryConfig, AgentToolsConfig } from '../schema/agents.schema';
import type { SandboxToolPolicyConfig } from '../schema/tool-layers.schema';
import type { OpenClawConfig } from '../schema/openclaw.schema';
import { isOpenClawOnlyTool, KNOWN_TOOL_NAMES, PROFILE_TOOLS, TOOL_ALIASES, TOOL_GROUPS } from './openclaw-tool-catalog';
import type { NormalizeContext } from './normalize-context';

type Path = Array<string | number>;

/** The tool-policy keys of one scope: `tools`, `agents.defaults.tools` or an agent's `tools`. */
interface PolicyScope {
  profile?: string;
  allow?: string[];
  deny?: string[];
  alsoAllow?: string[];
}

/** What one level of the policy lets through: `all`, or the names it allows; and what it denies. */
interface Level {
  allow: Set<string> | 'all';
  deny: Set<string>;
}

/** Whether the file uses OpenClaw's tool policy (a profile, alsoAllow, groups, patterns or the top-level lists). */
export function usesOpenClawToolPolicy(cfg: OpenClawConfig): boolean {
  const scopes: Array<PolicyScope | undefined> = [cfg.tools, cfg.agents?.defaults?.tools, ...agentEntries(cfg).map(([, e]) => e.tools)];
  const narrowsSessions =
    cfg.tools?.subagents !== undefined || scopes.some((s) => (s as AgentToolsConfig | undefined)?.sandbox !== undefined);
  return narrowsSessions || scopes.some(
    (s) =>
      s?.profile !== undefined ||
      s?.alsoAllow !== undefined ||
      (s === cfg.tools && (s?.allow !== undefined || s?.deny !== undefined)) ||
      // `mcp:<server>:*` is clawgate's own pattern (docs/mcp.md), matched when the run starts, not OpenClaw's.
      [...(s?.allow ?? []), ...(s?.deny ?? [])].some((name) => !isMcpToolEntry(name) && (name.startsWith('group:') || name.includes('*'))),
  );
}

/**
 * Each agent's tools under OpenClaw's tool policy, as clawgate's `tools.allow`/`deny` of the agent (deny wins, an
 * empty allow list allows all, a deny of `*` denies every tool). The levels, each only narrowing the one before
 * (OpenClaw's filtering order without the provider level, which clawgate refuses):
 *
 * 1. the profile: the agent's `tools.profile` (else `agents.defaults.tools.profile`, else `tools.profile`) with its
 *    `alsoAllow` (`tools.alsoAllow` too when the profile is the top-level one); `full` or none restricts nothing;
 * 2. `tools.allow` / `tools.deny`;
 * 3. the agent's `tools.allow` / `tools.deny` (else those of `agents.defaults.tools`).
 *
 * Then, for the agent's sandboxed and spawned sessions only (`sessionTools`, picked per run by the runtime):
 *
 * 4. the sandbox level: the agent's `tools.sandbox.tools`, else `tools.sandbox.tools`;
 * 5. the sub-agent level: `tools.subagents.tools`.
 *
 * `group:<name>` stands for its tools, `*` patterns match the tools OpenClaw and clawgate name, names are
 * case-insensitive. Tools OpenClaw documents that clawgate lacks drop out of the result (with a warning where a
 * list names them); a name neither knows (a plugin's tool) is kept as written.
 */
export function resolveToolPolicies(
  ctx: NormalizeContext,
  cfg: OpenClawConfig,
  agents: readonly ResolvedAgent[],
  pluginTools: ReadonlySet<string> = new Set(),
): ResolvedAgent[] {
  const global = cfg.tools ?? {};
  const defaults = cfg.agents?.defaults?.tools ?? {};
  const lacks = (name: string) => isOpenClawOnlyTool(name) && !pluginTools.has(name);
  const expander = new Expander(ctx, pluginTools, lacks);
  checkScope(ctx, global, ['tools']);
  checkScope(ctx, defaults, ['agents', 'defaults', 'tools']);
  const entries = new Map(agentEntries(cfg).map(([source, entry]) => [toDottedPath(source), { source, tools: entry.tools ?? {} }]));
  for (const { source, tools } of entries.values()) checkScope(ctx, tools, [...source, 'tools']);

  const globalLevel = listLevel(expander, global, ['tools']);
  const subagentLevel = global.subagents?.tools ? listLevel(expander, global.subagents.tools, ['tools', 'subagents', 'tools']) : undefined;
  return agents.map((agent) => {
    const own = entries.get(toDottedPath(agent.source)) ?? { source: agent.source, tools: {} };
    const levels = [
      profileLevel(expander, global, defaults, own.tools, own.source),
      globalLevel,
      listLevel(expander, pick(own.tools, defaults), own.tools.allow || own.tools.deny ? [...own.source, 'tools'] : ['agents', 'defaults', 'tools']),
    ].filter((level): level is Level => level !== undefined);
    const sandbox = sandboxLevel(expander, [
      [own.tools.sandbox?.tools, [...own.source, 'tools', 'sandbox', 'tools']],
      [defaults.sandbox?.tools, ['agents', 'defaults', 'tools', 'sandbox', 'tools']],
      [global.sandbox?.tools, ['tools', 'sandbox', 'tools']],
    ]);
    const tools = combine(levels, lacks);
    if (!sandbox && !subagentLevel) return { ...agent, tools };
    const narrowed = (...extra: Array<Level | undefined>) =>
      combine([...levels, ...extra.filter((level): level is Level => level !== undefined)], lacks);
    const sessionTools = {
      sandboxed: narrowed(sandbox),
      subagent: narrowed(subagentLevel),
      sandboxedSubagent: narrowed(sandbox, subagentLevel),
    };
    return { ...agent, tools, sessionTools };
  });
}

/**
 * The sandbox level of one agent: the first of its own `tools.sandbox.tools`, `agents.defaults.tools.sandbox.tools` and
 * `tools.sandbox.tools` that is set (OpenClaw: an agent's replaces the global one). `alsoAllow` widens a set `allow`;
 * alone it restricts nothing, since clawgate has no default sandbox allowlist to add to.
 */
function sandboxLevel(expander: Expander, candidates: Array<[SandboxToolPolicyConfig | undefined, Path]>): Level | undefined {
  const found = candidates.find(([scope]) => scope !== undefined);
  if (!found) return undefined;
  const [scope, at] = found as [SandboxToolPolicyConfig, Path];
  const level = listLevel(expander, { allow: scope.allow, deny: scope.deny }, at);
  const also = expander.expand(scope.alsoAllow, [...at, 'alsoAllow']);
  if (!level || level.allow === 'all') return level;
  if (also === 'all') return { ...level, allow: 'all' };
  also.forEach((name) => (level.allow as Set<string>).add(name));
  return level;
}

function agentEntries(cfg: OpenClawConfig): Array<[Path, AgentMapEntryConfig]> {
  if (cfg.agents?.entries) return [...cfg.agents.entries].map(([id, entry]): [Path, AgentMapEntryConfig] => [['agents', 'entries', id], entry]);
  return (cfg.agents?.list ?? []).map((entry, i): [Path, AgentMapEntryConfig] => [['agents', 'list', i], entry]);
}

/** The agent's allow and deny, each from the agent or else from agents.defaults (clawgate's rule for agent fields). */
function pick(own: AgentToolsConfig, defaults: AgentToolsConfig): PolicyScope {
  return { allow: own.allow ?? defaults.allow, deny: own.deny ?? defaults.deny };
}

/** As OpenClaw: `allow` and `alsoAllow` in one scope contradict each other (merge them, or use profile + alsoAllow). */
function checkScope(ctx: NormalizeContext, scope: PolicyScope, at: Path): void {
  if (scope.allow !== undefined && scope.alsoAllow !== undefined) {
    ctx.errors.push({
      path: toDottedPath([...at, 'alsoAllow']),
      message: `cannot be set together with ${toDottedPath([...at, 'allow'])}: merge its entries into allow, or drop allow and use profile + alsoAllow`,
    });
  }
}

function profileLevel(expander: Expander, global: PolicyScope, defaults: PolicyScope, own: PolicyScope, source: Path): Level | undefined {
  const ownAlso: [string[] | undefined, Path] = [own.alsoAllow ?? defaults.alsoAllow, [...source, 'tools', 'alsoAllow']];
  let profile: string | undefined;
  let at: Path;
  let alsoAllow: Array<[string[] | undefined, Path]>;
  if (own.profile !== undefined) [profile, at, alsoAllow] = [own.profile, [...source, 'tools'], [[own.alsoAllow, ownAlso[1]]]];
  else if (defaults.profile !== undefined) [profile, at, alsoAllow] = [defaults.profile, ['agents', 'defaults', 'tools'], [ownAlso]];
  else [profile, at, alsoAllow] = [global.profile, ['tools'], [[global.alsoAllow, ['tools', 'alsoAllow']], ownAlso]];
  if (profile === undefined || profile === 'full') return undefined;
  const allowed = new Set(PROFILE_TOOLS[profile as keyof typeof PROFILE_TOOLS].flatMap((name) => TOOL_ALIASES[name] ?? [name]));
  expander.reportProfile(profile, [...at, 'profile']);
  for (const [list, path] of alsoAllow) {
    const expanded = expander.expand(list, path);
    if (expanded === 'all') return undefined;
    expanded.forEach((name) => allowed.add(name));
  }
  return { allow: allowed, deny: new Set() };
}

function listLevel(expander: Expander, scope: PolicyScope, at: Path): Level | undefined {
  if (scope.allow === undefined && scope.deny === undefined) return undefined;
  const allow = scope.allow?.length ? expander.expand(scope.allow, [...at, 'allow']) : 'all';
  const deny = expander.expand(scope.deny, [...at, 'deny']);
  return { allow, deny: deny === 'all' ? new Set(['*']) : deny };
}

/**
 * The levels as one allow and one deny list: what every level allows and none denies. `mcp:` entries are grants of
 * their own (docs/mcp.md: an MCP tool is offered only where an entry names it), so they are not intersected: an
 * allow list's `mcp:` entries are kept whichever level wrote them, and a list holding only those restricts no other tool.
 */
function combine(levels: readonly Level[], lacks: (name: string) => boolean): ResolvedAgent['tools'] {
  const deny = new Set(levels.flatMap((l) => [...l.deny]));
  const mcpGrants = new Set(levels.flatMap((l) => (l.allow === 'all' ? [] : [...l.allow].filter(isMcpToolEntry))));
  const restricting = levels
    .map((l) => (l.allow === 'all' ? l.allow : new Set([...l.allow].filter((name) => !isMcpToolEntry(name)))))
    .filter((a): a is Set<string> => a !== 'all' && (a.size > 0 || mcpGrants.size === 0));
  const kept = (name: string) => !lacks(name);
  const grants = [...mcpGrants].filter((name) => !deny.has(name)).sort();
  if (deny.has('*')) return { allow: [], deny: ['*'] };
  if (restricting.length === 0) return { allow: grants, deny: [...deny].filter(kept).sort() };
  const [first, ...rest] = restricting;
  const allow = [...first].filter((name) => rest.every((set) => set.has(name)) && !deny.has(name) && kept(name)).sort();
  // Nothing left: deny everything (an empty allow list would mean every tool).
  return allow.length ? { allow: [...allow, ...grants], deny: [...deny].filter(kept).sort() } : { allow: [], deny: ['*'] };
}

/** Expands the entries of policy lists, reporting each unknown group and each list's missing tools once. */
class Expander {
  private readonly reported = new Set<string>();

  constructor(
    private readonly ctx: NormalizeContext,
    /** The tools the enabled plugins declare: what `group:plugins` stands for, and names this gateway has. */
    private readonly pluginTools: ReadonlySet<string>,
    /** A tool OpenClaw documents that neither clawgate nor an enabled plugin provides. */
    private readonly lacks: (name: string) => boolean,
  ) {}

  /** The tool names a list stands for; `all` when it holds `*`. */
  expand(list: readonly string[] | undefined, at: Path): Set<string> | 'all' {
    const out = new Set<string>();
    const missing: string[] = [];
    let all = false;
    (list ?? []).forEach((entry, i) => {
      const name = entry.trim().toLowerCase();
      // MCP tools are found when their server answers, and their names are case-sensitive: kept as written.
      if (isMcpToolEntry(entry.trim())) out.add(entry.trim());
      else if (name === '*') all = true;
      else if (name.startsWith('group:')) {
        const members = name === 'group:plugins' ? [...this.pluginTools] : TOOL_GROUPS[name];
        if (members) members.forEach((m) => (TOOL_ALIASES[m] ?? [m]).forEach((t) => out.add(t)));
        else this.unknownGroup(entry, [...at, i]);
      } else if (name.includes('*')) {
        const pattern = new RegExp(`^${name.split('*').map(escapeRegExp).join('.*')}$`);
        KNOWN_TOOL_NAMES.filter((t) => pattern.test(t)).forEach((t) => out.add(t));
      } else {
        (TOOL_ALIASES[name] ?? [name]).forEach((t) => out.add(t));
        const lacking = this.lacks(name) && !TOOL_ALIASES[name]?.some((t) => !this.lacks(t));
        if (lacking) missing.push(this.ctx.quoter.quote([...at, i], entry));
      }
    });
    const key = toDottedPath(at);
    // An agent's own allow/deny lists are checked where every agent's are (normalize-config.ts, warnUnknownTools).
    const agentList = at[0] === 'agents' && !at.includes('sandbox') && (at[at.length - 1] === 'allow' || at[at.length - 1] === 'deny');
    if (missing.length && !agentList && !this.reported.has(key)) {
      this.reported.add(key);
      this.ctx.warnings.push({ path: key, message: `tools not provided by this gateway are ignored: ${missing.join(', ')}` });
    }
    return all ? 'all' : out;
  }

  /** Once per place a profile is written: which of its tools this gateway has. */
  reportProfile(profile: string, at: Path): void {
    const key = toDottedPath(at);
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const tools = PROFILE_TOOLS[profile as keyof typeof PROFILE_TOOLS].flatMap((name) => TOOL_ALIASES[name] ?? [name]);
    const has = tools.filter((t) => (BUILT_IN_TOOL_NAMES as readonly string[]).includes(t) || this.pluginTools.has(t));
    const lacks = tools.filter(this.lacks);
    if (lacks.length === 0) return;
    this.ctx.warnings.push({
      path: key,
      message:
        `"${profile}" gives ${has.length ? has.join(', ') : 'no tool'} of this gateway; ` +
        `${lacks.length} of its tools are not provided by clawgate (${lacks.slice(0, 6).join(', ')}${lacks.length > 6 ? ', …' : ''})`,
    });
  }

  private unknownGroup(entry: string, at: Path): void {
    const hint = suggestClosest(entry.toLowerCase(), Object.keys(TOOL_GROUPS));
    this.ctx.errors.push({
      path: toDottedPath(at),
      message: `unknown tool group ${this.ctx.quoter.quote(at, entry)}${hint ? ` (did you mean "${hint}"?)` : ''}`,
    });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
