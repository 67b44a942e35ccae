/**
 * The chat-channel half of the plugin SDK: what a plugin hands to `api.registerChannel(…)` and what the gateway
 * gives back to it. A channel plugin speaks one platform (Telegram, Discord, Slack, …): it turns the platform's
 * updates into `ChannelInboundMessage`s and the gateway's replies into the platform's messages. Everything between
 * the two — who may talk to an agent (DM pairing, allowlists, group policy, mention gating), routing through the
 * bindings, sessions, the run itself — is the gateway's, the same for every channel. Like plugin-api.ts, this file
 * imports nothing of the gateway's modules. See docs/plugins.md#channels.
 */
import type { PluginLogger } from './plugin-logger';

/** Where a message was said: a direct chat, a group, a broadcast channel, or a thread inside one of them. */
export type ChannelPeerKind = 'dm' | 'group' | 'channel' | 'thread';

/** A file travelling with a message, either way. `data` is the bytes; the gateway enforces the size limits. */
export interface ChannelFile {
  name: string;
  mimeType: string;
  data: Buffer;
}

/** One message a person (or a bot) sent on the platform, as the plugin read it. */
export interface ChannelInboundMessage {
  /** The bot account that received it (`channels.<id>.accounts.<accountId>`; `default` for a single-bot section). */
  accountId: string;
  /** The chat it was said in: its kind and the platform's id for it (a DM's id is the sender's chat). */
  peer: { kind: ChannelPeerKind; id: string };
  /** Discord's guild (server) id, when there is one. */
  guildId?: string;
  /** Slack's team (workspace) id, when there is one. */
  teamId?: string;
  /**
   * Who sent it. `isSelf`: the bot account itself (the plugin knows its own id): always ignored, so a bot never
   * answers itself. `isBot`: another bot: ignored unless the section sets `allowBots: true`.
   */
  sender: { id: string; name?: string; username?: string; isBot?: boolean; isSelf?: boolean };
  /** The thread or forum topic inside the peer, when the platform has one. */
  threadId?: string;
  /** The platform's id for this message: replies thread to it, and duplicates are recognised by it. */
  messageId: string;
  /** The id of the message this one answers, when it is a reply. */
  replyToId?: string;
  text: string;
  /** True when the message names the bot (@mention, a reply to the bot, a command addressed to it). */
  mentionsBot: boolean;
  /**
   * Set by a plugin whose platform section lists its group places in its own shape (Discord's
   * `guilds.<id>.channels.<id|name>`), when that list admits where this group message was said: the gateway counts
   * the place as listed under `groupPolicy: "allowlist"`, like a `groups.<id>` entry, with this mention gating. A
   * plugin that refuses a place by its own list does not hand the message over at all.
   */
  listedGroup?: { requireMention: boolean };
  files?: ChannelFile[];
}

/** A piece of the agent's answer while it grows. `text` is always the whole reply so far, not a delta. */
export type ChannelReplyEvent =
  { type: 'progress'; text: string } | { type: 'final'; text: string; files?: ChannelFile[] } | { type: 'failed'; message: string };

/**
 * What the gateway decided about an inbound message. `reply`: routed to an agent; the events stream the answer (the
 * plugin edits its message as it grows and settles it on `final`). `pairing`: an unknown sender under the `pairing`
 * DM policy; `text` (the one-time code and how to get approved) is what the plugin sends back. `ignored`: nothing
 * is sent (`reason` is for the plugin's debug log: not mentioned in a group, a bot, a disabled policy, …).
 */
export type ChannelInboundOutcome =
  | { kind: 'reply'; agentId: string; sessionKey: string; events: AsyncIterable<ChannelReplyEvent> }
  | { kind: 'pairing'; text: string }
  | { kind: 'ignored'; reason: string };

/** Something the gateway asks a channel to say without being asked: an announce, a `sessions_send` result. */
export interface ChannelOutboundMessage {
  accountId: string;
  peer: { kind: ChannelPeerKind; id: string };
  threadId?: string;
  replyToId?: string;
  text: string;
  files?: ChannelFile[];
}

export interface ChannelDeliveryReceipt {
  /** `delivered`: the platform accepted it; `failed`: it did not, after the plugin's retries (`detail` says why). */
  status: 'delivered' | 'failed';
  /** The platform's id of the sent message, when delivered. */
  messageId?: string;
  detail?: string;
}

/** One bot account's connection, as `/admin/channels` and metrics show it. */
export interface ChannelAccountHealth {
  accountId: string;
  state: 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'stopped';
  /** The platform's error in words (a bad token says so, naming the account), never a credential. */
  error?: string;
}

/** What a channel's `start` receives: its section of the config and the way into the gateway. */
export interface ChannelContext {
  /** The channel's id (`telegram`). */
  readonly channelId: string;
  /** Its current `channels.<id>` section, validated by the manifest's schema, secrets resolved. */
  config<C = Record<string, unknown>>(): C;
  /** Called with the new section after each applied change to it. */
  onConfigChange<C = Record<string, unknown>>(listener: (config: C) => void): void;
  /**
   * Hands one inbound message to the gateway. Resolves once the gateway has decided (policy, routing); the
   * reply then streams through `events`. Never rejects for a policy refusal: that is an `ignored` outcome.
   */
  inbound(message: ChannelInboundMessage): Promise<ChannelInboundOutcome>;
  /** Reports an account's connection state; the gateway keeps the last one per account. */
  setHealth(health: ChannelAccountHealth): void;
  readonly logger: PluginLogger;
  /** The plugin's private directory (the same as `api.stateDir`): an update offset, say, is kept here. */
  readonly stateDir: string;
  /** Aborted when the channel is stopped (disable, reconfigure that needs a restart, shutdown). */
  readonly signal: AbortSignal;
}

/**
 * A chat channel. The id must be one the manifest declares in `contracts.channels`. `start` connects every
 * configured account and returns once they are started (not necessarily connected: report that through
 * `setHealth`); a `start` that throws marks the channel failed and the gateway retries it with backoff. `stop` has
 * a deadline on shutdown.
 */
export interface ChannelDefinition {
  id: string;
  start(context: ChannelContext): Promise<void> | void;
  stop?(): Promise<void> | void;
  /** Says something the gateway initiated (announces, `sessions_send` results) on the platform. */
  send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt>;
}
