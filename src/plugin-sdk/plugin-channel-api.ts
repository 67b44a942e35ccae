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

/** A file travelling with a message, either way. `data` is the bytes. */
export interface ChannelFile {
  name: string;
  mimeType: string;
  data: Buffer;
}

/**
 * A file that came with an inbound message (a photo, a document). The gateway fetches it only once the message has
 * passed the policies, and only when it is within the account's `mediaMaxMb` (docs/channels.md#files): the plugin
 * hands over what the platform says of the file and how to download it, not the bytes.
 */
export interface ChannelInboundFile {
  name: string;
  mimeType: string;
  /** Its size in bytes, as the platform says: a larger file than the limit is refused without a download. */
  size?: number;
  /** The bytes, when the plugin has them already (then no `download`). */
  data?: Buffer;
  /**
   * Downloads the bytes, at most `maxBytes` of them (a larger file: throw, or return more and the gateway refuses
   * it). A failure throws an Error whose message says what failed in words a chat user may read: it is sent back to
   * the chat, so it never carries a credential or a URL that holds one.
   */
  download?(maxBytes: number): Promise<Buffer>;
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
  /** The files that came with it (at most 20); `text` may be empty then. */
  files?: ChannelInboundFile[];
  /**
   * Told each piece of the reply as the agent writes it (the piece, not the text so far), with its tool round (a new
   * round starts the reply over), in order and without coalescing: for a channel that forwards the pieces as they
   * come (Server-Sent Events, say). Set before the run starts, so no piece is missed.
   */
  onReplyDelta?: (delta: ChannelReplyDelta) => void;
}

/** What `ChannelContext.runTurn` runs. */
export interface ChannelAgentTurn {
  /** Who is asking (an account or key the plugin authenticated): the session's return address and the usage's peer. */
  accountId: string;
  agentId: string;
  text: string;
  /** A session key the caller gave (it must be the agent's); `sessionKeyLabel` is what errors call it [`sessionKey`]. */
  sessionKey?: string;
  sessionKeyLabel?: string;
  /** Without `sessionKey`: the peer whose direct session on this channel it is (`agent:<id>:<channel>:direct:<peer>`). */
  peerId?: string;
  /** Kept with the run (its `meta`) next to `channel`. */
  meta?: Record<string, string>;
  /** Each piece of the reply as it is written, with its tool round; set before the run starts, so none is missed. */
  onReplyDelta?: (delta: ChannelReplyDelta) => void;
}

/** A turn that started: its ids at once, its end when `done` settles (it never rejects). */
export interface ChannelAgentRun {
  runId: string;
  agentId: string;
  sessionKey: string;
  done: Promise<ChannelAgentRunResult>;
}

export interface ChannelAgentRunResult {
  /** `queued` or `running` only for a run the gateway gave up waiting on (it is stopping). */
  status: 'completed' | 'failed' | 'aborted' | 'queued' | 'running';
  reply?: string;
  error?: string;
  /** Tokens of all the run's model calls (0 when the model reports none). */
  usage: { inputTokens: number; outputTokens: number };
  /** Refused by a budget (docs/usage.md#budgets): the seconds until it resets, when known. */
  refusal?: { retryAfterSeconds?: number };
}

/** One piece of a reply as it is written (`ChannelInboundMessage.onReplyDelta`). */
export interface ChannelReplyDelta {
  /** The tool round (0 first); the reply is the concatenation of the last round's pieces. */
  round: number;
  text: string;
}

/**
 * A piece of the agent's answer while it grows. `text` is always the whole reply so far, not a delta. A `failed`
 * event with `retryable: true` means the gateway did not answer because it is shutting down (the run was refused or
 * stopped): the plugin says nothing more in the chat and keeps the message to hand it in again after the restart
 * (it was not answered, so it must not be dropped).
 */
export type ChannelReplyEvent =
  | { type: 'progress'; text: string }
  | { type: 'final'; text: string; files?: ChannelFile[] }
  /** `status`: `aborted` when the run was cancelled or stopped, else `failed`. */
  | { type: 'failed'; message: string; status: 'failed' | 'aborted'; retryable?: boolean };

/**
 * What the gateway decided about an inbound message. `reply`: routed to an agent; the events stream the answer (the
 * plugin edits its message as it grows and settles it on `final`). `pairing`: an unknown sender under the `pairing`
 * DM policy; `text` (the one-time code and how to get approved) is what the plugin sends back. `ignored`: nothing
 * is sent (`reason` is for the plugin's debug log: not mentioned in a group, a bot, a disabled policy, …). `refused`:
 * the message was for an agent but cannot be run as it is (a file over the size limit, a file that could not be
 * downloaded); `text`, which says why, is what the plugin sends back, and the message is done with.
 */
export type ChannelInboundOutcome =
  | { kind: 'reply'; runId: string; agentId: string; sessionKey: string; events: AsyncIterable<ChannelReplyEvent> }
  | { kind: 'pairing'; text: string }
  | { kind: 'refused'; text: string }
  | { kind: 'ignored'; reason: string };

/** Something the gateway asks a channel to say without being asked: an announce, a `sessions_send` result. */
export interface ChannelOutboundMessage {
  /** The session it belongs to (what a webhook receiver files it under). */
  sessionKey: string;
  accountId: string;
  peer: { kind: ChannelPeerKind; id: string };
  threadId?: string;
  replyToId?: string;
  text: string;
  files?: ChannelFile[];
}

export interface ChannelDeliveryReceipt {
  /**
   * `delivered`: the platform accepted it; `failed`: it did not, after the plugin's retries (`detail` says why);
   * `stored`: the channel has no way to push it (an integration account without a webhook, say), so the gateway keeps
   * it in the session's transcript, marked as this channel's delivery, where the integrator reads it.
   */
  status: 'delivered' | 'failed' | 'stored';
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
  /**
   * An `accounts` channel only (docs/plugins.md#agent-turns): runs one turn for the agent the caller named, in the
   * session the caller named (or the peer's direct session on this channel, or a session of its own), without the
   * bindings' routing — for an API whose caller picks the agent itself. Throws an `AppError` before anything runs:
   * `not_found` for an agent that is not configured (`errors[0]`: `{field: 'agentId'}`), `bad_request` for a session key
   * that is not one or is another agent's (`errors[0]`: `{field: 'sessionKey', reason: 'invalid' | 'agent_mismatch'}`).
   */
  runTurn(turn: ChannelAgentTurn): ChannelAgentRun;
  /** Reports an account's connection state; the gateway keeps the last one per account. */
  setHealth(health: ChannelAccountHealth): void;
  /**
   * Reports a reply to an inbound message the platform did not take after the plugin's retries: counted in the
   * account's delivery failures (`/admin/channels`, metrics). (An announce's failure is its `failed` receipt.)
   */
  reportDeliveryFailure?(accountId: string, detail: string): void;
  readonly logger: PluginLogger;
  /** The plugin's private directory (the same as `api.stateDir`): an update offset, say, is kept here. */
  readonly stateDir: string;
  /** Aborted when the channel is stopped (disable, reconfigure that needs a restart, shutdown). */
  readonly signal: AbortSignal;
  /**
   * An HTTP call out (a webhook, a platform's API) through the gateway's transport guard (docs/outbound.md): http(s)
   * only, no credentials in the URL, no redirects (a 3xx throws and its Location is never requested), no private
   * address for a host named by DNS, at most 30 s, an audit line per call. The URL must come from the channel's config
   * (`setting` names where, for the errors), never from a message. Throws a `ChannelHttpError` when no usable
   * response came; any status is a response.
   */
  request(request: ChannelHttpRequest): Promise<ChannelHttpResponse>;
}

export interface ChannelHttpRequest {
  url: string;
  /** The dotted config path the URL was read from (`channels.http.accounts.desk.webhookUrl`): errors name it. */
  setting: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** At most 30 s [the gateway's outbound default]. */
  timeoutMs?: number;
  /** `false`: the response body is discarded unread (only the status matters). */
  readBody?: boolean;
  /** The largest body read [16 MiB]: a longer one fails with `too_large` (a file download passes its size limit). */
  maxBytes?: number;
  /** The audit line's `kind` [`channel:<id>`]. */
  kind?: string;
}

export interface ChannelHttpResponse {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Empty when `readBody` was false. */
  body: Buffer;
}

/** What `ChannelContext.request` throws: why no usable response came. Its message names the host at most. */
export interface ChannelHttpError extends Error {
  failure: 'invalid_destination' | 'refused_address' | 'redirect' | 'timeout' | 'aborted' | 'too_large' | 'network';
  /** The status of a refused redirect. */
  status?: number;
  /** The socket error code of a `network` failure (ECONNREFUSED, …). */
  code?: string;
}

/**
 * A chat channel. The id must be one the manifest declares in `contracts.channels`. `start` connects every
 * configured account and returns once they are started (not necessarily connected: report that through
 * `setHealth`); a `start` that throws marks the channel failed and the gateway retries it with backoff. `stop` has
 * a deadline on shutdown.
 */
export interface ChannelDefinition {
  id: string;
  /**
   * Who may talk to an agent through it. `policy` [default]: people on a chat platform, so the gateway applies the DM
   * and group policies (pairing, allowlists, mention gating) to every inbound message. `accounts`: an integration
   * whose every caller is an account the plugin authenticated itself (a token per account, checked in its route):
   * the policies do not apply; the account is the caller's identity, and routing, sessions and the run are the same.
   */
  access?: 'policy' | 'accounts';
  start(context: ChannelContext): Promise<void> | void;
  stop?(): Promise<void> | void;
  /** Says something the gateway initiated (announces, `sessions_send` results) on the platform. */
  send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt>;
}
