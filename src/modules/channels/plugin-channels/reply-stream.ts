import type { ChannelReplyEvent } from '../../../plugin-sdk';

/**
 * A run's reply as a channel reads it: `progress` events carrying the whole text so far, then one `final` (or
 * `failed`). Progress coalesces: a channel that reads slower than the model writes gets the latest text, never a
 * backlog of stale ones. One reader.
 */
export class ReplyStream implements AsyncIterable<ChannelReplyEvent> {
  private latest?: string;
  private sent = '';
  private terminal?: ChannelReplyEvent;
  private wake?: () => void;

  progress(text: string): void {
    if (this.terminal) return;
    this.latest = text;
    this.wake?.();
  }

  end(event: Extract<ChannelReplyEvent, { type: 'final' | 'failed' }>): void {
    if (this.terminal) return;
    this.terminal = event;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ChannelReplyEvent> {
    for (;;) {
      if (this.latest !== undefined) {
        const text = this.latest;
        this.latest = undefined;
        if (text !== this.sent && !(this.terminal?.type === 'final' && this.terminal.text === text)) {
          this.sent = text;
          yield { type: 'progress', text };
          continue;
        }
      }
      if (this.terminal) {
        yield this.terminal;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
