import type { ChannelInboundMessage, ChannelPeerKind } from '../../../plugin-sdk';
import type { InboundMessage } from '../../routing';
import { isRecord } from '../../../common/is-record';
import { filesProblem } from './inbound-files';

const PEER_KINDS: ReadonlySet<string> = new Set<ChannelPeerKind>(['dm', 'group', 'channel', 'thread']);

/**
 * What is wrong with an inbound message a plugin handed over (plugin code is not trusted to get the shape right),
 * as `<field>: <problem>`; undefined when it is usable.
 */
export function inboundProblem(message: unknown): string | undefined {
  if (!isRecord(message)) return 'the message must be an object';
  const str = (v: unknown) => typeof v === 'string' && v.length > 0;
  if (!str(message.accountId) || (message.accountId as string).includes(':')) return 'accountId: must be a non-empty string without ":"';
  const peer = message.peer;
  if (!isRecord(peer) || !PEER_KINDS.has(peer.kind as string)) return `peer.kind: must be one of ${[...PEER_KINDS].join(', ')}`;
  if (!str(peer.id)) return 'peer.id: must be a non-empty string';
  if (!isRecord(message.sender) || !str(message.sender.id)) return 'sender.id: must be a non-empty string';
  if (!str(message.messageId)) return 'messageId: must be a non-empty string';
  if (typeof message.text !== 'string') return 'text: must be a string';
  if (typeof message.mentionsBot !== 'boolean') return 'mentionsBot: must be a boolean';
  for (const key of ['guildId', 'teamId', 'threadId', 'replyToId'] as const) {
    if (message[key] !== undefined && typeof message[key] !== 'string') return `${key}: must be a string when given`;
  }
  const listed = message.listedGroup;
  if (listed !== undefined && (!isRecord(listed) || typeof listed.requireMention !== 'boolean')) {
    return 'listedGroup: must be { requireMention: boolean } when given';
  }
  return filesProblem(message.files);
}

/**
 * The message as routing reads it — the very shape `/admin/routing/resolve` takes, so the two always agree. A DM is
 * routing's `direct` peer; a thread is routed as its group conversation, the thread id making its own session.
 */
export function routingInbound(channel: string, message: ChannelInboundMessage): InboundMessage {
  const kind = message.peer.kind === 'dm' ? 'direct' : message.peer.kind === 'thread' ? 'group' : message.peer.kind;
  return {
    channel,
    accountId: message.accountId,
    peer: { kind, id: message.peer.id },
    ...(message.guildId !== undefined ? { guildId: message.guildId } : {}),
    ...(message.teamId !== undefined ? { teamId: message.teamId } : {}),
    ...(message.threadId ? { threadId: message.threadId } : {}),
  };
}
