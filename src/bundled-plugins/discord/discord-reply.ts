import type { ChannelReplyEvent } from '../../plugin-sdk';
import { splitMarkdown, type ChatPacer } from '../chat-kit';

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
 * One reply, kept in step with the agent's growing answer: the first text is sent as a reply to the message it
 * answers (`message_reference`), later text edits it — at most one write per pacer turn per channel, the newest
 * text each time — and a reply beyond Discord's 2000 characters continues in further messages, cut on paragraph and
 * code-block boundaries. `final` settles every message on the final text; `failed` leaves what was said and adds
 * why it stopped. "typing…" shows until then. Discord renders Markdown itself: the text goes as the agent wrote it.
 */
export class DiscordReply {
  private readonly messages: { id: string; shown: string }[] = [];

  constructor(
    private readonly channel: ReplyChannel,
    private readonly pacer: ChatPacer,
    private readonly replyTo?: string,
  ) {}

  async deliver(events: AsyncIterable<ChannelReplyEvent>, signal?: AbortSignal): Promise<void> {
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
          await this.pacer.turn(this.channel.id, signal);
          const now = current();
          if (now?.type !== 'progress') continue; // settled while waiting for the turn: show the end instead
          shownText = now.text;
          if (shownText.trim()) await this.show(shownText);
          continue;
        }
        await this.pacer.turn(this.channel.id, signal);
        if (event.type === 'final') await this.show(event.text.trim() ? event.text : shownText?.trim() ? shownText : '(no reply)');
        else await this.show(`${shownText?.trim() ? `${shownText}\n\n` : ''}⚠️ ${event.message}`);
        break;
      }
    } finally {
      typing.stop();
      await pump.catch(() => undefined);
    }
  }

  /** Sends or edits the messages so that together they read `text`. */
  private async show(text: string): Promise<void> {
    for (const [index, piece] of splitMarkdown(text, DISCORD_TEXT_LIMIT).entries()) {
      const message = this.messages[index];
      if (message?.shown === piece) continue;
      if (message) {
        await this.channel.edit(message.id, piece);
        message.shown = piece;
      } else {
        const id = await this.channel.send(piece, index === 0 ? this.replyTo : undefined);
        this.messages.push({ id, shown: piece });
      }
    }
  }

  private keepTyping(): { stop(): void } {
    const type = (): void => void this.channel.typing().catch(() => undefined);
    type();
    const timer = setInterval(type, TYPING_EVERY_MS);
    return { stop: () => clearInterval(timer) };
  }
}
