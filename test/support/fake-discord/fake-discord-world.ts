import { ScriptedFailures } from '../scripted-failures';
import type { BotMessage, DChannel, DGuild, DMessage, DUser, RecordedCall } from './discord-types';

const DISCORD_EPOCH = 1_420_070_400_000n;
let increment = 0n;

/** A fresh snowflake: the milliseconds since Discord's epoch in the top 42 bits, a counter below. */
export function snowflake(): string {
  increment = (increment + 1n) % 4096n;
  return (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | increment).toString();
}

export function makeUser(name: string, bot = false): DUser {
  return {
    id: snowflake(),
    username: name.toLowerCase().replace(/\W+/g, '_'),
    global_name: name,
    discriminator: '0',
    avatar: null,
    ...(bot ? { bot } : {}),
  };
}

/** One bot application: its token, its user, and what it did through the REST API. */
export class FakeDiscordBot {
  readonly calls: RecordedCall[] = [];
  /** The Gateway opcodes of each connection's handshake, in order: `IDENTIFY`, `RESUME`. */
  readonly handshakes: ('IDENTIFY' | 'RESUME')[] = [];
  /** Scripted 429s: a call (`method`, `route`) matches a script of its method whose route pattern it fits. */
  private readonly limits = new ScriptedFailures<{ method: string; route: string }, number>();

  constructor(
    readonly token: string,
    readonly user: DUser,
  ) {}

  /**
   * The next `count` calls of `method` on routes matching `route` (`/channels/*\/messages`, `*` one segment) answer
   * 429 with `retry_after` seconds.
   */
  failNext(method: string, route: string, count: number, retryAfter = 1): void {
    const pattern = new RegExp(`^${route.split('*').map(escapeRegExp).join('[^/]+')}$`);
    const scripted = method.toUpperCase();
    this.limits.add(count, retryAfter, (call) => call.method === scripted && pattern.test(call.route));
  }

  /** The scripted 429 for this call, if one is due (and counts it). */
  takeLimit(method: string, route: string): number | undefined {
    return this.limits.take({ method, route });
  }
}

/**
 * Discord's state as the fake keeps it: users, guilds with their channels, threads and member bots, DM channels,
 * and every message by channel.
 */
export class FakeDiscordWorld {
  readonly guilds = new Map<string, { guild: DGuild; members: Set<string> }>();
  readonly channels = new Map<string, DChannel>();
  readonly messages = new Map<string, DMessage[]>();
  private readonly sent = new Map<string, BotMessage>();

  guildChannels(guildId: string): DChannel[] {
    return [...this.channels.values()].filter((c) => c.guild_id === guildId);
  }

  /** Whether the bot may see and write in the channel: a DM it is part of, or a channel of a guild it is in. */
  visible(bot: FakeDiscordBot, channel: DChannel): boolean {
    if (channel.type === 1) return channel.recipients?.some((r) => r.id === bot.user.id) ?? false;
    return !!channel.guild_id && (this.guilds.get(channel.guild_id)?.members.has(bot.user.id) ?? false);
  }

  /** The DM channel between a bot and a user (made on first use, as `POST /users/@me/channels` does). */
  dmChannel(bot: DUser, user: DUser): DChannel {
    for (const channel of this.channels.values()) {
      const ids = channel.recipients?.map((r) => r.id) ?? [];
      if (channel.type === 1 && ids.includes(bot.id) && ids.includes(user.id)) return channel;
    }
    const channel: DChannel = { id: snowflake(), type: 1, recipients: [user, bot], last_message_id: null };
    this.channels.set(channel.id, channel);
    return channel;
  }

  message(channelId: string, messageId: string): DMessage | undefined {
    return this.messages.get(channelId)?.find((m) => m.id === messageId);
  }

  addMessage(message: DMessage): DMessage {
    const list = this.messages.get(message.channel_id) ?? [];
    list.push(message);
    this.messages.set(message.channel_id, list);
    const channel = this.channels.get(message.channel_id);
    if (channel) channel.last_message_id = message.id;
    if (message.author.bot) {
      this.sent.set(message.id, {
        id: message.id,
        channelId: message.channel_id,
        content: message.content,
        versions: [message.content],
        ...(message.attachments.length ? { attachments: message.attachments } : {}),
        ...(message.message_reference ? { replyTo: message.message_reference.message_id } : {}),
      });
    }
    return message;
  }

  edited(message: DMessage): void {
    const record = this.sent.get(message.id);
    if (!record) return;
    record.content = message.content;
    record.versions.push(message.content);
  }

  /** The messages a bot user sent, oldest first, optionally in one channel. */
  botMessages(botId: string, channelId?: string): BotMessage[] {
    return [...this.sent.values()].filter(
      (m) => this.message(m.channelId, m.id)?.author.id === botId && (channelId === undefined || m.channelId === channelId),
    );
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
