import { randomBytes } from 'node:crypto';
import { ChangeSignal } from '../change-signal';
import { ScriptedFailures } from '../scripted-failures';
import { slackId } from './slack-ids';
import type { PostedMessage, RecordedCall, SlackConversation, SlackEnvelope, SlackMessageEvent } from './slack-types';

/** A Web API error answer: `{ ok: false, error }` (HTTP 200, as Slack answers), or a 429 with `Retry-After`. */
export class SlackApiError extends Error {
  constructor(
    readonly error: string,
    readonly status = 200,
    readonly retryAfter?: number,
  ) {
    super(error);
  }
}

/** The most characters Slack keeps of a message's `text`; a longer one is refused (`msg_too_long`). */
export const SLACK_MAX_TEXT = 40_000;

const clock = 1_700_000_000;
let seq = 0;
/** A message timestamp (`1700000000.000100`): unique and increasing, as Slack's `ts` are within a channel. */
export function nextTs(): string {
  seq++;
  return `${clock + Math.floor(seq / 1000)}.${String((seq % 1000) * 100).padStart(6, '0')}`;
}

/**
 * One Slack app installed in the fake workspace: its bot token (`xoxb-…`, Web API), app-level token (`xapp-…`,
 * Socket Mode's `apps.connections.open` only), signing secret, bot user and bot id; the conversations it is in, the
 * messages its bot posted (with every edit), the calls it received, scripted 429s, and its Socket Mode envelopes
 * (unacknowledged ones are redelivered).
 */
export class FakeSlackApp {
  readonly botToken: string;
  readonly appToken: string;
  readonly signingSecret: string;
  readonly appId: string;
  readonly botId: string;
  readonly botUserId: string;
  readonly calls: RecordedCall[] = [];
  readonly posted: PostedMessage[] = [];
  readonly conversations = new Map<string, SlackConversation>();
  /** Every envelope sent, in order (redeliveries included), and which were acknowledged. */
  readonly envelopes: SlackEnvelope[] = [];
  readonly acked = new Set<string>();
  /** Scripted 429s by method: their `Retry-After` seconds. */
  private readonly failures = new ScriptedFailures<string, number>();
  private readonly signal = new ChangeSignal();

  constructor(
    readonly name: string,
    readonly teamId: string,
    index: number,
  ) {
    const n = String(index).padStart(4, '0');
    this.appId = `A0${n}APP`;
    this.botId = `B0${n}BOT`;
    this.botUserId = `U0${n}BOT`;
    this.botToken = `xoxb-${n}-${randomBytes(12).toString('hex')}`;
    this.appToken = `xapp-1-${this.appId}-${randomBytes(12).toString('hex')}`;
    this.signingSecret = randomBytes(16).toString('hex');
  }

  /** The next `count` calls of `method` answer 429 with `Retry-After: retryAfter` (seconds). */
  failNext(method: string, count = 1, retryAfter = 1): void {
    this.failures.add(count, retryAfter, (called) => called === method, method);
  }

  /** Throws the scripted 429 for `method`, if one is due. */
  rateLimit(method: string): void {
    const retryAfter = this.failures.take(method);
    if (retryAfter !== undefined) throw new SlackApiError('ratelimited', 429, retryAfter);
  }

  /** The bot's messages in a conversation (a DM may be named by the user's id), oldest first. */
  botMessages(channel?: string): PostedMessage[] {
    const id = channel === undefined ? undefined : this.conversationId(channel);
    return this.posted.filter((m) => id === undefined || m.channel === id);
  }

  conversationId(channelOrUser: string): string {
    if (this.conversations.has(channelOrUser)) return channelOrUser;
    const dm = [...this.conversations.values()].find((c) => c.type === 'im' && c.user === channelOrUser);
    return dm?.id ?? channelOrUser;
  }

  record(call: RecordedCall): void {
    this.calls.push(call);
    this.changed();
  }

  onChange(listener: () => void): () => void {
    return this.signal.onChange(listener);
  }

  changed(): void {
    this.signal.changed();
  }

  /** The bot's DM (`im`) with a user, made on first use. */
  imWith(user: string): SlackConversation {
    let im = [...this.conversations.values()].find((c) => c.type === 'im' && c.user === user);
    if (!im) {
      im = { id: slackId('D'), type: 'im', user };
      this.conversations.set(im.id, im);
    }
    return im;
  }

  // ── the Web API methods that need the bot token ──

  postMessage(params: Record<string, unknown>): { channel: string; ts: string; message: Record<string, unknown> } {
    const channel = this.conversationOf(params.channel);
    const text = textOf(params.text);
    const threadTs = typeof params.thread_ts === 'string' && params.thread_ts ? params.thread_ts : undefined;
    const ts = nextTs();
    const message: PostedMessage = {
      channel: channel.id,
      ts,
      ...(threadTs ? { threadTs } : {}),
      text,
      versions: [text],
      mrkdwn: params.mrkdwn !== false && params.mrkdwn !== 'false',
    };
    this.posted.push(message);
    this.changed();
    return {
      channel: channel.id,
      ts,
      message: {
        type: 'message',
        user: this.botUserId,
        bot_id: this.botId,
        app_id: this.appId,
        text,
        ts,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      },
    };
  }

  update(params: Record<string, unknown>): { channel: string; ts: string; text: string } {
    const channel = this.conversationOf(params.channel);
    const message = this.posted.find((m) => m.channel === channel.id && m.ts === params.ts);
    if (!message) throw new SlackApiError('message_not_found');
    const text = textOf(params.text);
    message.text = text;
    message.versions.push(text);
    this.changed();
    return { channel: channel.id, ts: message.ts, text };
  }

  conversationInfo(params: Record<string, unknown>): Record<string, unknown> {
    const c = this.conversationOf(params.channel);
    return {
      id: c.id,
      ...(c.name ? { name: c.name } : {}),
      is_im: c.type === 'im',
      is_mpim: c.type === 'mpim',
      is_channel: c.type === 'channel',
      is_group: c.type === 'group',
      is_private: c.type !== 'channel',
      ...(c.user ? { user: c.user } : {}),
    };
  }

  private conversationOf(value: unknown): SlackConversation {
    if (typeof value !== 'string' || !value) throw new SlackApiError('channel_not_found');
    const conversation = this.conversations.get(this.conversationId(value));
    if (!conversation) throw new SlackApiError('channel_not_found');
    return conversation;
  }
}

function textOf(value: unknown): string {
  if (typeof value !== 'string' || !value) throw new SlackApiError('no_text');
  if (value.length > SLACK_MAX_TEXT) throw new SlackApiError('msg_too_long');
  return value;
}

/** What an inbound event looks like as a message event, for the test helpers. */
export type InboundEvent = SlackMessageEvent;
