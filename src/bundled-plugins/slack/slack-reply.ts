import type { WebClient } from '@slack/web-api';
import type { ChannelReplyEvent } from '../../plugin-sdk';
import { splitMarkdown, type ChatPacer } from '../chat-kit';
import type { ReplyPlace } from './slack-inbound';
import { markdownToMrkdwn } from './slack-mrkdwn';

/**
 * The characters of one reply message. Slack keeps up to 40,000 characters of a message's `text` but asks for
 * messages under 4,000 (https://api.slack.com/methods/chat.postMessage#truncating); OpenClaw's `textChunkLimit`
 * defaults to 4000 too.
 */
export const SLACK_TEXT_LIMIT = 4000;

/**
 * One reply in a conversation, kept in step with the agent's growing answer: the first text is posted (in the
 * thread of the message it answers), later text updates it by `chat.update`, at most one write per interval per
 * conversation (the pacer), and the last `progress` before each turn is the one shown; a reply beyond
 * SLACK_TEXT_LIMIT continues in further messages of the thread. `final` settles every message on the final text;
 * `failed` leaves what was said and adds why it stopped. `onPosted` hears the messages' `ts` each time one is
 * added (a reply resumed after a restart updates those instead of posting again).
 */
export class SlackReply {
  private readonly messages: { ts: string; shown?: string }[];

  constructor(
    private readonly client: WebClient,
    private readonly place: ReplyPlace,
    private readonly pacer: ChatPacer,
    existing: readonly string[],
    private readonly onPosted: (ts: string[]) => void,
  ) {
    this.messages = existing.map((ts) => ({ ts }));
  }

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
          await this.pacer.turn(this.place.channel, signal);
          const now = current();
          if (now?.type !== 'progress') continue; // settled while waiting for the turn: show the end instead
          shownText = now.text;
          if (shownText.trim()) await this.show(shownText);
          continue;
        }
        await this.pacer.turn(this.place.channel, signal);
        if (event.type === 'final') await this.show(event.text.trim() ? event.text : shownText?.trim() ? shownText : '(no reply)');
        else await this.show(`${shownText?.trim() ? `${shownText}\n\n` : ''}⚠️ ${event.message}`);
        break;
      }
    } finally {
      await pump.catch(() => undefined);
    }
  }

  /** Posts or updates the messages so that they read `markdown`. */
  private async show(markdown: string): Promise<void> {
    for (const [index, piece] of splitMarkdown(markdown, SLACK_TEXT_LIMIT).entries()) {
      const text = markdownToMrkdwn(piece);
      const message = this.messages[index];
      if (message?.shown === text) continue;
      if (message) {
        await this.client.chat.update({ channel: this.place.channel, ts: message.ts, text });
        message.shown = text;
        continue;
      }
      const posted = await this.client.chat.postMessage({
        channel: this.place.channel,
        text,
        mrkdwn: true,
        ...(this.place.threadTs ? { thread_ts: this.place.threadTs } : {}),
      });
      this.messages.push({ ts: posted.ts!, shown: text });
      this.onPosted(this.messages.map((m) => m.ts));
    }
  }
}
