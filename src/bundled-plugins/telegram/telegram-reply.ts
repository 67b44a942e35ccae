import { GrammyError, type Api } from 'grammy';
import type { ChannelReplyEvent } from '../../plugin-sdk';
import { StreamedReply, type ChatPacer, type ReplyPiece, type ReplyTarget } from '../chat-kit';
import { markdownToTelegramHtml } from './markdown-html';

/** The most characters one Telegram message holds (after entity parsing). */
export const TELEGRAM_TEXT_LIMIT = 4096;

/** Where a reply goes and what it already sent (a reply resumed after a restart edits those messages). */
export interface ReplyPlace {
  chatId: number;
  threadId?: number;
  replyTo?: number;
}

const TYPING_EVERY_MS = 4000; // Telegram shows "typing…" for 5 s or until the next message
/** How many message ids past the last known one a resumed reply looks at for a message it may have sent. */
const PROBE_IDS = 10;

/** What the reply tells its journal. */
export interface ReplyRecorder {
  /** A message is about to be sent. */
  sending(): void;
  /** The reply's messages now (after each send). */
  sent(messageIds: number[]): void;
}

/**
 * One reply in a Telegram chat, streamed by chat-kit's StreamedReply: the first text is sent (threaded to the
 * message it answers, in its forum topic), later text edits it (`editMessageText`), a reply beyond 4096 characters
 * continues in further messages; Markdown goes as Telegram HTML, as plain text when Telegram cannot parse it.
 * "typing…" shows until the reply settles. The recorder hears each send before it starts and the message ids after.
 */
export class TelegramReply implements ReplyTarget<number> {
  readonly limit = TELEGRAM_TEXT_LIMIT;
  readonly deferRetryable = true;
  readonly typing = { everyMs: TYPING_EVERY_MS, send: () => this.api.sendChatAction(this.place.chatId, 'typing', this.threadOption()) };
  private readonly reply: StreamedReply<number>;
  /** The ids of the reply's messages: a probe for a lost message passes them by. */
  private readonly known: Set<number>;

  constructor(
    private readonly api: Api,
    private readonly place: ReplyPlace,
    pacer: ChatPacer,
    existing: readonly number[],
    private readonly recorder: ReplyRecorder,
    /**
     * Set when the process died between sending a message of this reply and recording its id: the message may
     * exist. Telegram has no way to list a bot's messages, but ids in a chat are sequential and only the bot's own
     * messages can be edited: the ids after `probeFrom` are tried with an edit, one that succeeds is the lost
     * message (replies in a chat go one after the other, so no other reply's message is there), "message to edit
     * not found" means there is none.
     */
    private probeFrom?: number,
  ) {
    this.reply = new StreamedReply(this, pacer, existing);
    this.known = new Set(existing);
  }

  get pacerKey(): number {
    return this.place.chatId;
  }

  /**
   * Keeps the chat in step with `events` until they end. `deferred`: the gateway did not answer (a `retryable`
   * failure: it is shutting down); nothing more is said, and the message is to be handed in again after the restart.
   */
  deliver(events: AsyncIterable<ChannelReplyEvent>, signal?: AbortSignal): Promise<'answered' | 'deferred'> {
    return this.reply.deliver(events, signal);
  }

  render(markdown: string): string {
    return markdownToTelegramHtml(markdown);
  }

  async post(piece: ReplyPiece, index: number): Promise<number> {
    const lost = await this.findLostMessage(piece.rendered);
    if (lost !== undefined) return this.remember(lost);
    this.recorder.sending();
    return this.remember(await this.send(piece.markdown, piece.rendered, index === 0));
  }

  posted(ids: readonly number[]): void {
    this.recorder.sent([...ids]);
  }

  async edit(id: number, piece: ReplyPiece): Promise<void> {
    try {
      await this.api.editMessageText(this.place.chatId, id, piece.rendered, { parse_mode: 'HTML' });
    } catch (error) {
      if (isNotModified(error)) {
        // the same text (a reply resumed after a restart): nothing to change
      } else if (isParseError(error)) {
        await this.api.editMessageText(this.place.chatId, id, piece.markdown).catch((e: unknown) => {
          if (!isNotModified(e)) throw e;
        });
      } else {
        throw error;
      }
    }
  }

  private remember(id: number): number {
    this.known.add(id);
    return id;
  }

  private async findLostMessage(html: string): Promise<number | undefined> {
    const from = this.probeFrom;
    if (from === undefined) return undefined;
    this.probeFrom = undefined;
    const known = this.known;
    for (let id = from; id < from + PROBE_IDS; id++) {
      if (known.has(id)) continue;
      try {
        await this.api.editMessageText(this.place.chatId, id, html, { parse_mode: 'HTML' });
        return id;
      } catch (error) {
        if (isNotModified(error)) return id;
        if (error instanceof GrammyError && error.description.includes('message to edit not found')) return undefined;
        if (!(error instanceof GrammyError && error.error_code === 400)) throw error;
        // someone else's message (can't be edited) or not a text message: look further
      }
    }
    return undefined;
  }

  private async send(markdown: string, html: string, first: boolean): Promise<number> {
    const options = {
      ...(this.place.threadId !== undefined ? { message_thread_id: this.place.threadId } : {}),
      ...(first && this.place.replyTo !== undefined
        ? { reply_parameters: { message_id: this.place.replyTo, allow_sending_without_reply: true } }
        : {}),
    };
    try {
      return (await this.api.sendMessage(this.place.chatId, html, { ...options, parse_mode: 'HTML' })).message_id;
    } catch (error) {
      if (!isParseError(error)) throw error;
      return (await this.api.sendMessage(this.place.chatId, markdown, options)).message_id;
    }
  }

  private threadOption(): { message_thread_id?: number } {
    return this.place.threadId !== undefined ? { message_thread_id: this.place.threadId } : {};
  }
}

function isParseError(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && error.description.includes("can't parse entities");
}

function isNotModified(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && error.description.includes('message is not modified');
}
