import type { ChannelReplyEvent } from '../../plugin-sdk';
import type { ChatPacer } from './chat-pacer';
import { splitMarkdown } from './split-text';

/** One message's worth of a reply: the Markdown piece, and what the platform is sent for it. */
export interface ReplyPiece {
  readonly markdown: string;
  readonly rendered: string;
}

/** Where a streamed reply is written: the platform's calls, its limit, and the conversation's pacing key. */
export interface ReplyTarget<Id> {
  /** The most characters of Markdown one message holds (the piece is cut before rendering). */
  readonly limit: number;
  /** The pacer's key: the conversation whose writes are paced. */
  readonly pacerKey: string | number;
  /** The platform's text for a piece of Markdown (compared with what a message shows to skip an edit that changes nothing). */
  render(markdown: string): string;
  /** Sends message number `index` of the reply (0: the first, threaded to what it answers); its id. */
  post(piece: ReplyPiece, index: number): Promise<Id>;
  edit(id: Id, piece: ReplyPiece): Promise<void>;
  /** Hears the ids of the reply's messages each time one is added (a journal keeps them for a resumed reply). */
  posted?(ids: readonly Id[]): void;
  /** A typing indicator, sent at once and every `everyMs` until the reply settles. */
  readonly typing?: { readonly everyMs: number; send(): Promise<unknown> };
  /**
   * A `retryable` failure (the gateway is shutting down) ends the delivery as `deferred`, saying nothing, for the
   * message to be handed in again after the restart; otherwise it is shown like any failure.
   */
  readonly deferRetryable?: boolean;
}

/**
 * One reply in a chat, kept in step with the agent's growing answer: the first text is posted, later text edits it,
 * at most one write per pacer turn per conversation, and the newest `progress` before each turn is the one shown
 * (those overtaken while waiting are never written); a reply beyond the platform's limit continues in further
 * messages, cut on paragraph and code-block boundaries. `final` settles every message on the final text; `failed`
 * leaves what was said and adds why it stopped. A reply resumed after a restart starts from the ids of the messages
 * it had posted, and edits them instead of posting again. The platform's calls are the target's.
 */
export class StreamedReply<Id> {
  private readonly messages: { id: Id; shown?: string }[];

  constructor(
    private readonly target: ReplyTarget<Id>,
    private readonly pacer: ChatPacer,
    existing: readonly Id[] = [],
  ) {
    this.messages = existing.map((id) => ({ id }));
  }

  /** Keeps the chat in step with `events` until they end. */
  async deliver(events: AsyncIterable<ChannelReplyEvent>, signal?: AbortSignal): Promise<'answered' | 'deferred'> {
    let latest: ChannelReplyEvent | undefined;
    let ended = false;
    let wake: (() => void) | undefined;
    const notify = (): void => {
      wake?.();
      wake = undefined;
    };
    // The events are read as fast as they come; the writes below take only the newest.
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
          await this.pacer.turn(this.target.pacerKey, signal);
          const now = current();
          if (now?.type !== 'progress') continue; // settled while waiting for the turn: show the end instead
          shownText = now.text;
          if (shownText.trim()) await this.show(shownText);
          continue;
        }
        if (event.type === 'failed' && event.retryable && this.target.deferRetryable) return 'deferred';
        await this.pacer.turn(this.target.pacerKey, signal);
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

  /** Posts or edits the messages so that together they read `markdown`. */
  private async show(markdown: string): Promise<void> {
    for (const [index, text] of splitMarkdown(markdown, this.target.limit).entries()) {
      const piece = { markdown: text, rendered: this.target.render(text) };
      const message = this.messages[index];
      if (message?.shown === piece.rendered) continue;
      if (message) {
        await this.target.edit(message.id, piece);
        message.shown = piece.rendered;
        continue;
      }
      this.messages.push({ id: await this.target.post(piece, index), shown: piece.rendered });
      this.target.posted?.(this.messages.map((m) => m.id));
    }
  }

  private keepTyping(): { stop(): void } {
    const typing = this.target.typing;
    if (!typing) return { stop: () => undefined };
    const type = (): void => void typing.send().catch(() => undefined);
    type();
    const timer = setInterval(type, typing.everyMs);
    return { stop: () => clearInterval(timer) };
  }
}
