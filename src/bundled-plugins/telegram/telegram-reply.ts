import { GrammyError, type Api } from 'grammy';
import type { ChannelReplyEvent } from '../../plugin-sdk';
import { splitMarkdown, type ChatPacer } from '../chat-kit';
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
 * One reply in a chat, kept in step with the agent's growing answer: the first text is sent (threaded to the
 * message it answers), later text edits it, at most one write a second per chat (the pacer), and the last
 * `progress` before each turn is the one shown; a reply beyond Telegram's 4096 characters continues in further
 * messages. `final` settles every message on the final text; `failed` leaves what was said and adds why it stopped.
 * "typing…" shows until then. `onSent` hears the message ids each time a message is added.
 */
export class TelegramReply {
  private readonly messages: { id: number; shown?: string }[];

  constructor(
    private readonly api: Api,
    private readonly place: ReplyPlace,
    private readonly pacer: ChatPacer,
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
    this.messages = existing.map((id) => ({ id }));
  }

  /**
   * Keeps the chat in step with `events` until they end. `deferred`: the gateway did not answer (a `retryable`
   * failure: it is shutting down); nothing more is said, and the message is to be handed in again after the restart.
   */
  async deliver(events: AsyncIterable<ChannelReplyEvent>, signal?: AbortSignal): Promise<'answered' | 'deferred'> {
    let latest: ChannelReplyEvent | undefined;
    let ended = false;
    let wake: (() => void) | undefined;
    const notify = (): void => {
      wake?.();
      wake = undefined;
    };
    const pump = (async () => {
      try {
        for await (const event of events) {
          latest = event;
          notify();
          if (event.type !== 'progress') break;
        }
      } finally {
        ended = true;
        notify();
      }
    })();
    const typing = this.keepTyping();
    try {
      let shownText: string | undefined;
      const current = (): ChannelReplyEvent | undefined => latest;
      for (;;) {
        while (!ended && (latest === undefined || (latest.type === 'progress' && latest.text === shownText))) {
          await new Promise<void>((resolve) => (wake = resolve));
        }
        const event = current();
        if (event === undefined) break;
        if (event.type === 'progress') {
          if (event.text === shownText) break; // the stream ended without a final: what was shown stays
          await this.pacer.turn(this.place.chatId, signal);
          const now = current();
          if (now?.type !== 'progress') continue; // settled while waiting for the turn: show the end instead
          shownText = now.text;
          if (shownText.trim()) await this.show(shownText);
          continue;
        }
        if (event.type === 'failed' && event.retryable) return 'deferred';
        await this.pacer.turn(this.place.chatId, signal);
        if (event.type === 'final') await this.show(event.text.trim() ? event.text : shownText?.trim() ? shownText : '(no reply)');
        else await this.show(`${shownText?.trim() ? `${shownText}\n\n` : ''}⚠️ ${event.message}`);
        break;
      }
    } finally {
      typing.stop();
      await pump.catch(() => undefined);
    }
    return 'answered';
  }

  /** Sends or edits the messages so that they read `markdown`. */
  private async show(markdown: string): Promise<void> {
    const pieces = splitMarkdown(markdown, TELEGRAM_TEXT_LIMIT);
    for (const [index, piece] of pieces.entries()) {
      const html = markdownToTelegramHtml(piece);
      const message = this.messages[index];
      if (message?.shown === html) continue;
      if (message) {
        await this.edit(message, piece, html);
      } else {
        const lost = await this.findLostMessage(html);
        if (lost !== undefined) {
          this.messages.push({ id: lost, shown: html });
        } else {
          this.recorder.sending();
          this.messages.push({ id: await this.send(piece, html, index === 0), shown: html });
        }
        this.recorder.sent(this.messages.map((m) => m.id));
      }
    }
  }

  private async findLostMessage(html: string): Promise<number | undefined> {
    const from = this.probeFrom;
    if (from === undefined) return undefined;
    this.probeFrom = undefined;
    const known = new Set(this.messages.map((m) => m.id));
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

  private async edit(message: { id: number; shown?: string }, markdown: string, html: string): Promise<void> {
    try {
      await this.api.editMessageText(this.place.chatId, message.id, html, { parse_mode: 'HTML' });
    } catch (error) {
      if (isNotModified(error)) {
        // the same text (a reply resumed after a restart): nothing to change
      } else if (isParseError(error)) {
        await this.api.editMessageText(this.place.chatId, message.id, markdown).catch((e: unknown) => {
          if (!isNotModified(e)) throw e;
        });
      } else {
        throw error;
      }
    }
    message.shown = html;
  }

  private keepTyping(): { stop(): void } {
    const options = this.place.threadId !== undefined ? { message_thread_id: this.place.threadId } : {};
    const type = (): void => void this.api.sendChatAction(this.place.chatId, 'typing', options).catch(() => undefined);
    type();
    const timer = setInterval(type, TYPING_EVERY_MS);
    return { stop: () => clearInterval(timer) };
  }
}

function isParseError(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && error.description.includes("can't parse entities");
}

function isNotModified(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && error.description.includes('message is not modified');
}
