import * as path from 'node:path';

/**
 * What OpenClaw itself does with a document, written from its code (src/agents/agent-scope.ts,
 * src/routing/resolve-route.ts), independently of clawgate's implementation: the test checks clawgate's answers
 * against these.
 */

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
const DEFAULT_AGENT_ID = 'main';
const DEFAULT_ACCOUNT_ID = 'default';

/** OpenClaw's older peer kind `dm` is `direct`. */
const peerKind = (kind: unknown) => (String(kind) === 'dm' ? 'direct' : String(kind));

/** OpenClaw's normalizeAgentId for the ids the corpus uses: trimmed, lower case. */
export const normalizeAgentId = (id: string) => id.trim().toLowerCase();

interface AgentEntry {
  id: string;
  default?: boolean;
  workspace?: string;
}

/** agents.list[], or the newer agents.entries.<id>. */
export function agentEntries(doc: Record<string, any>): AgentEntry[] {
  const agents = isObject(doc.agents) ? doc.agents : {};
  if (Array.isArray(agents.list)) return agents.list.filter((a: unknown): a is AgentEntry => isObject(a) && typeof a.id === 'string');
  if (isObject(agents.entries)) return Object.entries(agents.entries).map(([id, a]) => ({ ...(isObject(a) ? a : {}), id }));
  return [];
}

/** resolveDefaultAgentId: the entry marked default, else the first, else `main`. */
export function defaultAgentId(doc: Record<string, any>): string {
  const entries = agentEntries(doc);
  return normalizeAgentId((entries.find((a) => a.default) ?? entries[0])?.id ?? DEFAULT_AGENT_ID);
}

/**
 * resolveAgentWorkspaceDir, where the document decides it: the agent's own workspace, else agents.defaults.workspace
 * for the default agent and `<that>/<id>` for the others. `undefined` when the document names neither (OpenClaw then
 * uses its own state dir, clawgate its own: not a question of the document).
 */
export function configuredWorkspace(
  doc: Record<string, any>,
  agentId: string,
  home: string,
  configDir: string,
  env: Record<string, string | undefined>,
): string | undefined {
  const expand = (p: string) => {
    // Placeholders are substituted first (`${VAR}`, and the shell's `${VAR:-default}` real deploys write).
    const t = p
      .replace(/\$\{([A-Z_][A-Z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback?: string) => env[name] || fallback || '')
      .trim();
    if (t === '~') return home;
    if (t.startsWith('~/')) return path.join(home, t.slice(2));
    return path.resolve(configDir, t);
  };
  const own = agentEntries(doc).find((a) => normalizeAgentId(a.id) === agentId)?.workspace;
  if (typeof own === 'string' && own.trim()) return expand(own);
  const parent = isObject(doc.agents) && isObject(doc.agents.defaults) ? doc.agents.defaults.workspace : undefined;
  if (typeof parent !== 'string' || !parent.trim()) return undefined;
  return agentId === defaultAgentId(doc) ? expand(parent) : path.join(expand(parent), agentId);
}

/**
 * The models an agent tries, in order (OpenClaw: a string model overrides the primary only, `{ primary, fallbacks }`
 * both); `echo/default`, clawgate's offline model, when neither the agent nor agents.defaults names one.
 */
export function modelChain(doc: Record<string, any>, agentId: string): string[] {
  const own = (agentEntries(doc).find((a) => normalizeAgentId(a.id) === agentId) as Record<string, any> | undefined)?.model;
  const defaults = isObject(doc.agents) && isObject(doc.agents.defaults) ? doc.agents.defaults.model : undefined;
  const primaryOf = (m: unknown) => (typeof m === 'string' ? m : isObject(m) && typeof m.primary === 'string' ? m.primary : undefined);
  const fallbacksOf = (m: unknown): string[] | undefined => (isObject(m) && Array.isArray(m.fallbacks) ? m.fallbacks : undefined);
  const primary = primaryOf(own) ?? primaryOf(defaults) ?? 'echo/default';
  return [primary, ...(fallbacksOf(own) ?? fallbacksOf(defaults) ?? [])].map((ref) => modelByAlias(doc, ref));
}

/** A model named by its alias (`agents.defaults.models.<provider/model>.alias`) as the `provider/model` it stands for. */
export function modelByAlias(doc: Record<string, any>, ref: string): string {
  if (ref.includes('/')) return ref;
  const models = isObject(doc.agents) && isObject(doc.agents.defaults) ? doc.agents.defaults.models : undefined;
  const named = Object.entries(isObject(models) ? models : {}).find(([, m]) => isObject(m) && m.alias === ref);
  return named ? named[0] : ref;
}

export interface InboundRoute {
  channel: string;
  accountId?: string;
  peer?: { kind: string; id: string };
  guildId?: string;
  teamId?: string;
}

/** The bindings that route (untyped, or `type: "route"`); typed ACP bindings attach sessions, they do not route. */
export function routingBindings(doc: Record<string, any>): Array<{ index: number; agentId: string; match: Record<string, any> }> {
  const bindings: unknown[] = Array.isArray(doc.bindings) ? doc.bindings : [];
  return bindings.flatMap((b, index) =>
    isObject(b) && typeof b.agentId === 'string' && isObject(b.match) && (b.type === undefined || b.type === 'route')
      ? [{ index, agentId: normalizeAgentId(b.agentId), match: b.match }]
      : [],
  );
}

/**
 * resolveAgentRoute's choice of agent: the bindings of the channel and account (a binding without accountId is the
 * default account's, `*` any account's), then by tier — peer, guild, team, account, channel (`*`) — the first in file
 * order; else the default agent.
 */
export function openClawAgentFor(doc: Record<string, any>, msg: InboundRoute): string {
  const account = msg.accountId ?? DEFAULT_ACCOUNT_ID;
  const candidates = routingBindings(doc).filter(({ match }) => {
    if (String(match.channel ?? '').toLowerCase() !== msg.channel.toLowerCase()) return false;
    const wanted = typeof match.accountId === 'string' ? match.accountId.trim() : '';
    return wanted === '*' || (wanted || DEFAULT_ACCOUNT_ID) === account;
  });
  const scoped = (m: Record<string, any>) => isObject(m.peer) || m.guildId !== undefined || m.teamId !== undefined;
  const tiers: Array<(m: Record<string, any>) => boolean> = [
    (m) => isObject(m.peer) && !!msg.peer && peerKind(m.peer.kind) === msg.peer.kind && String(m.peer.id) === msg.peer.id,
    (m) => m.guildId !== undefined && !isObject(m.peer) && String(m.guildId) === msg.guildId,
    (m) => m.teamId !== undefined && !isObject(m.peer) && String(m.teamId) === msg.teamId,
    (m) => !scoped(m) && String(m.accountId ?? '').trim() !== '*',
    (m) => !scoped(m) && String(m.accountId ?? '').trim() === '*',
  ];
  for (const tier of tiers) {
    const hit = candidates.find(({ match }) => tier(match));
    if (hit) return firstExistingAgent(doc, hit.agentId);
  }
  return defaultAgentId(doc);
}

/** pickFirstExistingAgentId: a binding's agent the list does not have is the default agent (a list-less file keeps it). */
function firstExistingAgent(doc: Record<string, any>, agentId: string): string {
  const ids = agentEntries(doc).map((a) => normalizeAgentId(a.id));
  return ids.length === 0 || ids.includes(agentId) ? agentId : defaultAgentId(doc);
}

/** The inbound message a binding describes (what its channel would deliver to it). */
export function messageFor(match: Record<string, any>): InboundRoute {
  const msg: InboundRoute = { channel: String(match.channel) };
  if (typeof match.accountId === 'string' && match.accountId.trim() !== '*') msg.accountId = match.accountId;
  if (isObject(match.peer)) msg.peer = { kind: peerKind(match.peer.kind), id: String(match.peer.id) };
  if (match.guildId !== undefined) msg.guildId = String(match.guildId);
  if (match.teamId !== undefined) msg.teamId = String(match.teamId);
  return msg;
}
