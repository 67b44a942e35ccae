/**
 * Chat platforms allow a bot only so many writes per chat (Telegram about one message a second; Discord and Slack
 * similar); streamed edits beyond that earn 429s. Each chat's writes (sends and edits) take a turn here, at least
 * `intervalMs` after the chat's previous one.
 */
export class ChatPacer {
  private readonly next = new Map<number | string, number>();

  constructor(private readonly intervalMs = 1000) {}

  async turn(chatId: number | string, signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.next.get(chatId) ?? 0);
    this.next.set(chatId, at + this.intervalMs);
    if (at > now) await sleep(at - now, signal);
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
