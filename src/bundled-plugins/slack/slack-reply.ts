import type { WebClient } from '@slack/web-api';
import type { ChannelReplyEvent } from '../../plugin-sdk';
import { StreamedReply, type ChatPacer, type ReplyPiece, type ReplyTarget } from '../chat-kit';
import type { ReplyPlace } from './slack-inbound';
import { markdownToMrkdwn } from './slack-mrkdwn';

/**
 * The characters of one reply message. Slack keeps up to 40,000 characters of a message's `text` but asks for
 * messages under 4,000 (https://api.slack.com/methods/chat.postMessage#truncating); OpenClaw's `textChunkLimit`
 * defaults to 4000 too.
 */
export const SLACK_TEXT_LIMIT = 4000;

/**
 * One reply in a Slack conversation, streamed by chat-kit's StreamedReply: the first text is posted (in the thread
 * of the message it answers), later text updates it by `chat.update`, a reply beyond SLACK_TEXT_LIMIT continues in
 * further messages of the thread; Markdown goes as mrkdwn. `onPosted` hears the messages' `ts` each time one is
 * added (a reply resumed after a restart updates those instead of posting again).
 */
export class SlackReply implements ReplyTarget<string> {
  readonly limit = SLACK_TEXT_LIMIT;
  private readonly reply: StreamedReply<string>;

  constructor(
    private readonly client: WebClient,
    private readonly place: ReplyPlace,
    pacer: ChatPacer,
    existing: readonly string[],
    private readonly onPosted: (ts: string[]) => void,
  ) {
    this.reply = new StreamedReply(this, pacer, existing);
  }

  get pacerKey(): string {
    return this.place.channel;
  }

  async deliver(events: AsyncIterable<ChannelReplyEvent>, signal?: AbortSignal): Promise<void> {
    await this.reply.deliver(events, signal);
  }

  render(markdown: string): string {
    return markdownToMrkdwn(markdown);
  }

  async post(piece: ReplyPiece): Promise<string> {
    const posted = await this.client.chat.postMessage({
      channel: this.place.channel,
      text: piece.rendered,
      mrkdwn: true,
      ...(this.place.threadTs ? { thread_ts: this.place.threadTs } : {}),
    });
    return posted.ts!;
  }

  async edit(ts: string, piece: ReplyPiece): Promise<void> {
    await this.client.chat.update({ channel: this.place.channel, ts, text: piece.rendered });
  }

  posted(ts: readonly string[]): void {
    this.onPosted([...ts]);
  }
}
