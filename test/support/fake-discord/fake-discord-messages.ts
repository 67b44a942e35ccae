import type { DChannel, DMessage, DUser } from './discord-types';
import type { FakeDiscordFiles, FileUpload } from './fake-discord-files';
import { type FakeDiscordGateway, INTENTS } from './fake-discord-gateway';
import { type FakeDiscordBot, type FakeDiscordWorld, snowflake } from './fake-discord-world';

/**
 * Messages in the fake Discord, whoever writes them (a person in a test, a bot through REST): stored in the world,
 * and dispatched over the Gateway to every bot that sees the channel.
 */
export class FakeDiscordMessages {
  constructor(
    private readonly world: FakeDiscordWorld,
    private readonly bots: ReadonlyMap<string, FakeDiscordBot>,
    private readonly files: FakeDiscordFiles,
    private readonly gateway: () => FakeDiscordGateway,
  ) {}

  /** A new message (a reply to `replyTo` when given, the files attached), announced as MESSAGE_CREATE. */
  post(channel: DChannel, author: DUser, content: string, replyTo?: string, files: FileUpload[] = []): DMessage {
    const referenced = replyTo ? this.world.message(channel.id, replyTo) : undefined;
    const message: DMessage = {
      id: snowflake(),
      type: referenced ? 19 : 0,
      channel_id: channel.id,
      ...(channel.guild_id ? { guild_id: channel.guild_id } : {}),
      author,
      content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: this.mentionsIn(content),
      mention_roles: [],
      attachments: files.map((f) => this.files.attach(channel.id, f)),
      embeds: [],
      pinned: false,
      ...(referenced
        ? {
            message_reference: {
              type: 0,
              message_id: referenced.id,
              channel_id: channel.id,
              ...(channel.guild_id ? { guild_id: channel.guild_id } : {}),
            },
            referenced_message: referenced,
          }
        : {}),
    };
    this.world.addMessage(message);
    this.announce(channel, 'MESSAGE_CREATE', message);
    return message;
  }

  /** MESSAGE_CREATE / MESSAGE_UPDATE to every bot that sees the channel, shaped by each session's intents. */
  announce(channel: DChannel, t: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE', message: DMessage): void {
    const intent = channel.type === 1 ? INTENTS.DIRECT_MESSAGES : INTENTS.GUILD_MESSAGES;
    for (const bot of this.botsSeeing(channel)) {
      this.gateway().dispatch(bot, t, message, intent, (d, session) => {
        const m = d as DMessage;
        // Without MESSAGE_CONTENT, a guild message's content is empty unless the bot is mentioned or wrote it.
        const readable =
          session.intents & INTENTS.MESSAGE_CONTENT ||
          channel.type === 1 ||
          m.author.id === bot.user.id ||
          m.mentions.some((u) => u.id === bot.user.id);
        return {
          ...m,
          ...(readable ? {} : { content: '', attachments: [] }),
          ...(channel.type === 1 ? { channel_type: 1 } : { channel_type: channel.type }),
        };
      });
    }
  }

  botsSeeing(channel: DChannel): FakeDiscordBot[] {
    return [...this.bots.values()].filter((bot) => this.world.visible(bot, channel));
  }

  /** The bot users a message's `<@id>` mentions name. */
  mentionsIn(content: string): DUser[] {
    const ids = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1]);
    return [...this.bots.values()].map((b) => b.user).filter((u) => ids.includes(u.id));
  }
}
