/** The normalized `bindings`: which agent an inbound message of a channel, account or peer goes to. */

export type PeerKind = 'direct' | 'group' | 'channel';

export interface ResolvedBinding {
  /** Position in `bindings[]`; config order decides ties within a tier. */
  index: number;
  agentId: string;
  match: {
    channel: string;
    accountId?: string;
    peer?: { kind: PeerKind; id: string };
    guildId?: string;
    teamId?: string;
  };
}
