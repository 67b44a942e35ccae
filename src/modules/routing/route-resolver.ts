import type { NormalizedConfig, PeerKind, ResolvedBinding } from '../config';
import { directSessionKey, groupSessionKey, mainSessionKey } from '../sessions';

/**
 * Layer 1 (docs/routing.md#routing): which agent answers an inbound message, and in which session.
 *
 * Matching: a binding matches when every field it sets equals the inbound's — channel; accountId (`"*"`
 * matches any account, an unset accountId matches only the default account `"default"`); peer kind + id;
 * guildId; teamId. Comparison is exact (case-sensitive): ids from chat platforms are opaque and some are
 * case-sensitive; only the resulting session key is lowercased.
 *
 * Tiering (docs/routing.md#precedence-tiers, for bindings that set several fields): a binding sits in the tier of
 * the MOST SPECIFIC field it sets — peer > guildId > teamId > explicit accountId > `accountId:"*"` >
 * channel only — and it still has to match ALL its fields. So `{channel, accountId: "work", peer}` is a
 * peer-tier binding that only fires for that peer on the "work" account, and it beats any guild/team/account
 * binding whatever the file order. Within a tier the first binding in config order wins, even when a later
 * one in the same tier sets more fields: the tiers are the only specificity ranking, which keeps the rule
 * easy to predict from the file.
 */

/** Account id an inbound message without accountId belongs to; bindings without accountId match only it. */
export const DEFAULT_ACCOUNT_ID = 'default';

export type BindingTier = 'peer' | 'guildId' | 'teamId' | 'accountId' | 'accountId:*' | 'channel';
export type RouteTier = BindingTier | 'default';

/** Most specific first; the order resolution walks. */
export const BINDING_TIERS: readonly BindingTier[] = ['peer', 'guildId', 'teamId', 'accountId', 'accountId:*', 'channel'];

export interface InboundMessage {
  channel: string;
  /** Missing (or empty) = the default account. */
  accountId?: string;
  peer?: { kind: PeerKind; id: string };
  guildId?: string;
  teamId?: string;
  /** Thread inside the peer's conversation; ignored without a peer (there is no conversation to thread). */
  threadId?: string;
}

export interface RouteResult {
  agentId: string;
  sessionKey: string;
  /** `bindingIndex` is the binding's position in `bindings[]`; null when the default agent answered. */
  matchedBy: { tier: RouteTier; bindingIndex: number | null };
}

/** The tier a binding belongs to: the most specific field it sets. */
export function bindingTier(binding: ResolvedBinding): BindingTier {
  const m = binding.match;
  if (m.peer) return 'peer';
  if (m.guildId !== undefined) return 'guildId';
  if (m.teamId !== undefined) return 'teamId';
  if (m.accountId === '*') return 'accountId:*';
  if (m.accountId !== undefined) return 'accountId';
  return 'channel';
}

/**
 * True when some binding of `channel` names the peer id `peerId` (of any kind, on any account). When none does,
 * a message from that peer is routed by the tiers below `peer`, exactly like a message without a peer — which lets
 * a caller whose peer ids are mostly new (one per A2A context) ask for that shared route instead of a new one.
 */
export function namesPeer(config: NormalizedConfig, channel: string, peerId: string): boolean {
  return compiledRoutes(config).peers.has(part(channel) + part(peerId));
}

/** Routes one inbound message over `config`. Pure; the compiled binding index is memoized per config object. */
export function resolveRoute(config: NormalizedConfig, inbound: InboundMessage): RouteResult {
  const accountId = inbound.accountId || DEFAULT_ACCOUNT_ID;
  const hit = findBinding(compiledRoutes(config), inbound, accountId);
  const agentId = hit ? hit.binding.agentId : config.defaultAgentId;
  return {
    agentId,
    sessionKey: routeSessionKey(config, agentId, inbound, accountId),
    matchedBy: hit ? { tier: hit.tier, bindingIndex: hit.binding.index } : { tier: 'default', bindingIndex: null },
  };
}

/** The binding at `bindings[index]` of this config (for explaining a result), or null. */
export function bindingAt(config: NormalizedConfig, index: number | null): ResolvedBinding | null {
  return index === null ? null : (compiledRoutes(config).byIndex.get(index) ?? null);
}

/** Direct peer → key by dmScope; group/channel peer → group key; no peer → the agent's main session. */
export function routeSessionKey(config: NormalizedConfig, agentId: string, inbound: InboundMessage, accountId: string): string {
  const { peer } = inbound;
  const { dmScope, mainKey } = config.session;
  if (!peer) return mainSessionKey(agentId, mainKey);
  const threadId = inbound.threadId || undefined;
  if (peer.kind === 'direct') {
    return directSessionKey({ agentId, dmScope, mainKey, channel: inbound.channel, accountId, peerId: peer.id, threadId });
  }
  return groupSessionKey({ agentId, channel: inbound.channel, kind: peer.kind, peerId: peer.id, threadId });
}

// ---------------------------------------------------------------------------------------------------------
// Compilation. Bindings of one tier are grouped by "shape" (which optional fields they set, and whether the
// account is a wildcard); each shape is a hash table from the exact values it requires to the first binding
// in config order. A lookup is then one table probe per shape — a handful per tier — instead of a scan over
// every binding, which matters with thousands of bindings.

interface Shape {
  anyAccount: boolean;
  peer: boolean;
  guild: boolean;
  team: boolean;
  /** Match key → first binding (lowest index) with those values. */
  table: Map<string, ResolvedBinding>;
}

interface CompiledTier {
  tier: BindingTier;
  shapes: Shape[];
}

interface CompiledRoutes {
  tiers: CompiledTier[];
  byIndex: Map<number, ResolvedBinding>;
  /** `channel` and peer id of every peer binding, length-prefixed like a match key (namesPeer). */
  peers: Set<string>;
}

/** Configs are immutable snapshots, so the compiled form lives exactly as long as its config object. */
const compiledByConfig = new WeakMap<NormalizedConfig, CompiledRoutes>();

function compiledRoutes(config: NormalizedConfig): CompiledRoutes {
  let compiled = compiledByConfig.get(config);
  if (!compiled) {
    compiled = compile(config.bindings);
    compiledByConfig.set(config, compiled);
  }
  return compiled;
}

function compile(bindings: readonly ResolvedBinding[]): CompiledRoutes {
  const tiers = new Map<BindingTier, Map<string, Shape>>(BINDING_TIERS.map((t) => [t, new Map()]));
  const byIndex = new Map<number, ResolvedBinding>();
  const peers = new Set<string>();
  // Config order decides ties, so insert by ascending index and never overwrite a key.
  const ordered = [...bindings].sort((a, b) => a.index - b.index);
  for (const binding of ordered) {
    byIndex.set(binding.index, binding);
    const m = binding.match;
    if (m.peer) peers.add(part(m.channel) + part(m.peer.id));
    const shapeOf = {
      anyAccount: m.accountId === '*',
      peer: m.peer !== undefined,
      guild: m.guildId !== undefined,
      team: m.teamId !== undefined,
    };
    const shapes = tiers.get(bindingTier(binding))!;
    const shapeId = `${+shapeOf.anyAccount}${+shapeOf.peer}${+shapeOf.guild}${+shapeOf.team}`;
    let shape = shapes.get(shapeId);
    if (!shape) {
      shape = { ...shapeOf, table: new Map() };
      shapes.set(shapeId, shape);
    }
    const key = matchKey(shape, m.channel, m.accountId ?? DEFAULT_ACCOUNT_ID, m.peer, m.guildId, m.teamId);
    if (key !== null && !shape.table.has(key)) shape.table.set(key, binding);
  }
  return {
    tiers: BINDING_TIERS.map((tier) => ({ tier, shapes: [...tiers.get(tier)!.values()] })).filter((t) => t.shapes.length > 0),
    byIndex,
    peers,
  };
}

function findBinding(
  compiled: CompiledRoutes,
  inbound: InboundMessage,
  accountId: string,
): { tier: BindingTier; binding: ResolvedBinding } | null {
  for (const { tier, shapes } of compiled.tiers) {
    let best: ResolvedBinding | undefined;
    for (const shape of shapes) {
      const key = matchKey(shape, inbound.channel, accountId, inbound.peer, inbound.guildId, inbound.teamId);
      if (key === null) continue;
      const candidate = shape.table.get(key);
      if (candidate && (!best || candidate.index < best.index)) best = candidate;
    }
    if (best) return { tier, binding: best };
  }
  return null;
}

/**
 * The values a shape compares, as one string; null when the inbound lacks a field the shape requires.
 * Each part is length-prefixed so no choice of ids can make two different tuples produce the same key.
 */
function matchKey(
  shape: Omit<Shape, 'table'>,
  channel: string,
  accountId: string,
  peer: { kind: PeerKind; id: string } | undefined,
  guildId: string | undefined,
  teamId: string | undefined,
): string | null {
  let key = part(channel);
  if (!shape.anyAccount) key += part(accountId);
  if (shape.peer) {
    if (!peer) return null;
    key += part(peer.kind) + part(peer.id);
  }
  if (shape.guild) {
    if (guildId === undefined) return null;
    key += part(guildId);
  }
  if (shape.team) {
    if (teamId === undefined) return null;
    key += part(teamId);
  }
  return key;
}

function part(value: string): string {
  return `${value.length}:${value}`;
}
