import type { ChannelReplyEvent } from '../../plugin-sdk';
import { StreamedReply, type ChatPacer, type ReplyPiece, type ReplyTarget } from '../chat-kit';

/** The most characters one Discord message's content holds. */
export const DISCORD_TEXT_LIMIT = 2000;

const TYPING_EVERY_MS = 8000; // Discord shows "is typing…" for 10 s or until the bot's next message

/** Where a reply is written: the channel (DM, guild channel or thread) the message came from. */
export interface ReplyChannel {
  /** The pacer's key: the Discord channel id. */
  readonly id: string;
  /** Sends a message (threaded to `replyTo` when given); its id. */
  send(content: string, replyTo?: string): Promise<string>;
  edit(messageId: string, content: string): Promise<void>;
  typing(): Promise<void>;
}

/**
 * One reply in a Discord channel, streamed by chat-kit's StreamedReply: the first text is sent as a reply to the
 * message it answers (`message_reference`), later text edits it, a reply beyond Discord's 2000 characters continues
 * in further messages. "typing…" shows until the reply settles. Discord renders Markdown itself: the text goes as
 * the agent wrote it.
 */
export class DiscordReply implements ReplyTarget<string> {
  readonly limit = DISCORD_TEXT_LIMIT;
  readonly typing = { everyMs: TYPING_EVERY_MS, send: () => this.channel.typing() };
  private readonly reply: StreamedReply<string>;

  constructor(
    private readonly channel: ReplyChannel,
    pacer: ChatPacer,
    private readonly replyTo?: string,
    existing: readonly string[] = [],
    private readonly onPosted?: (ids: readonly string[]) => void,
  ) {
    this.reply = new StreamedReply(this, pacer, existing);
  }

  get pacerKey(): string {
    return this.channel.id;
  }

  async deliver(events: AsyncIterable<ChannelReplyEvent>, signal?: AbortSignal): Promise<void> {
    await this.reply.deliver(events, signal);
  }

  render(markdown: string): string {
    return markdown;
  }

  post(piece: ReplyPiece, index: number): Promise<string> {
    return this.channel.send(piece.rendered, index === 0 ? this.replyTo : undefined);
  }

  edit(id: string, piece: ReplyPiece): Promise<void> {
    return this.channel.edit(id, piece.rendered);
  }

  posted(ids: readonly string[]): void {
    this.onPosted?.(ids);
  }
}
