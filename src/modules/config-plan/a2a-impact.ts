import type { A2aChannelSettings, NormalizedConfig } from '../config';
import { changedValues, splitKeys, type ValueChange } from './value-change';

/** A credential of a peer that changed; the plan says how, never what it is. */
export interface PeerTokenChange {
  peer: string;
  field: 'token' | 'outboundToken';
  change: 'rotated' | 'added' | 'removed';
}

export interface A2aImpact {
  peersAdded: string[];
  peersRemoved: string[];
  tokensRotated: PeerTokenChange[];
  /** Null when the agents peers may reach are the same; `null` inside means "all agents". */
  exposedAgents: { before: string[] | null; after: string[] | null; added: string[]; removed: string[] } | null;
  /**
   * Every other setting of the channel and of its kept peers that changed: the switch, the advertised URL, what
   * bounds what peers may do (rate, timeouts, kept tasks, files, push URLs) and how a peer is reached (url, version).
   * Credentials are never here: they are in `tokensRotated`.
   */
  limits: ValueChange[];
}

const TOKEN_FIELDS = ['token', 'outboundToken'] as const;

export function a2aImpact(before: NormalizedConfig, after: NormalizedConfig): A2aImpact {
  const was = before.channels.a2a;
  const now = after.channels.a2a;
  const peers = splitKeys(Object.keys(was.peers), Object.keys(now.peers));
  const tokensRotated: PeerTokenChange[] = [];
  for (const peer of peers.kept) {
    for (const field of TOKEN_FIELDS) {
      const a = was.peers[peer][field];
      const b = now.peers[peer][field];
      if (a === b) continue;
      tokensRotated.push({ peer, field, change: a === undefined ? 'added' : b === undefined ? 'removed' : 'rotated' });
    }
  }
  return {
    peersAdded: peers.added,
    peersRemoved: peers.removed,
    tokensRotated,
    exposedAgents: exposedChange(before, after),
    limits: changedValues([...limitKeys(was, now), ...peerSettingKeys(was, now, peers.kept)]),
  };
}

/** What peers can reach: the listed agents (that exist), or every agent when the list is unset. */
function exposedChange(before: NormalizedConfig, after: NormalizedConfig): A2aImpact['exposedAgents'] {
  const reach = (c: NormalizedConfig) => c.channels.a2a.exposeAgents ?? c.agents.map((a) => a.id);
  const { added, removed } = splitKeys(reach(before), reach(after));
  const listBefore = before.channels.a2a.exposeAgents;
  const listAfter = after.channels.a2a.exposeAgents;
  if (!added.length && !removed.length && JSON.stringify(listBefore) === JSON.stringify(listAfter)) return null;
  return { before: listBefore ? [...listBefore] : null, after: listAfter ? [...listAfter] : null, added, removed };
}

function limitKeys(was: A2aChannelSettings, now: A2aChannelSettings): Array<[string, unknown, unknown]> {
  const at = 'channels.a2a';
  return [
    [`${at}.enabled`, was.enabled, now.enabled],
    [`${at}.advertisedUrl`, was.advertisedUrl, now.advertisedUrl],
    [`${at}.rateLimitPerMinute`, was.rateLimitPerMinute, now.rateLimitPerMinute],
    [`${at}.replyTimeoutMs`, was.replyTimeoutMs, now.replyTimeoutMs],
    [`${at}.inputTimeoutMs`, was.inputTimeoutMs, now.inputTimeoutMs],
    [`${at}.keptTasksPerPeer`, was.keptTasksPerPeer, now.keptTasksPerPeer],
    [`${at}.files.maxBytes`, was.files.maxBytes, now.files.maxBytes],
    [`${at}.files.mediaTypes`, was.files.mediaTypes, now.files.mediaTypes],
  ];
}

/** A kept peer's settings other than its credentials and name (a renamed peer is one removed and one added). */
function peerSettingKeys(was: A2aChannelSettings, now: A2aChannelSettings, kept: string[]): Array<[string, unknown, unknown]> {
  return kept.flatMap((peer) => {
    const a = was.peers[peer];
    const b = now.peers[peer];
    const at = `channels.a2a.peers.${peer}`;
    return [
      [`${at}.url`, a.url, b.url],
      [`${at}.protocolVersion`, a.protocolVersion, b.protocolVersion],
      [`${at}.pushUrls`, a.pushUrls, b.pushUrls],
      [`${at}.trustBudget`, a.trustBudget, b.trustBudget],
    ] satisfies Array<[string, unknown, unknown]>;
  });
}
