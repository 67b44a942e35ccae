import type { ServerResponse } from 'node:http';
import { maskSecrets } from '../secrets/secret-mask';

/** How often an idle stream gets a comment line, so proxies and clients do not drop a quiet connection. */
export const SSE_KEEP_ALIVE_MS = 15_000;

export interface SseOptions {
  keepAliveMs?: number;
  /**
   * Bytes a client may fall behind (queued in the response, unsent) before `event` reports it with false, so the
   * producer can end a stream nobody reads fast enough instead of buffering without bound. Unset: no bound.
   */
  maxBufferedBytes?: number;
}

/**
 * A `text/event-stream` response written event by event (the Server-Sent Events format of the HTML standard).
 * The status line and headers go out with the first event (or `flush`). Each event's data passes the secret masker,
 * as every other response body does (SecretShield only sees bodies sent whole). Writes after the client went away,
 * or after `end`, are dropped: a stream's producer (a run) goes on whether anyone still reads it or not.
 */
export class SseResponse {
  private started = false;
  private ended = false;
  private keepAlive?: NodeJS.Timeout;
  private readonly keepAliveMs: number;
  private readonly maxBufferedBytes: number;

  /** Nothing is written until the first event: until then the request can still be answered with an error. */
  constructor(
    private readonly res: ServerResponse,
    options: SseOptions | number = {},
  ) {
    const { keepAliveMs = SSE_KEEP_ALIVE_MS, maxBufferedBytes = Infinity } =
      typeof options === 'number' ? { keepAliveMs: options } : options;
    this.keepAliveMs = keepAliveMs;
    this.maxBufferedBytes = maxBufferedBytes;
  }

  /** False once the client hung up or the stream was ended. */
  get open(): boolean {
    return !this.ended && !this.res.destroyed && this.res.writable;
  }

  /**
   * One event; `name` omitted means the default `message` event; `id` is the event's id (what a reconnecting client
   * sends back as `Last-Event-ID`). Data with line breaks becomes several `data:` lines. False when the client is more
   * than `maxBufferedBytes` behind.
   */
  event(name: string | undefined, data: string, id?: string): boolean {
    const lines = maskSecrets(data)
      .split(/\r\n|\r|\n/)
      .map((line) => `data: ${line}\n`)
      .join('');
    this.write(`${id !== undefined ? `id: ${id}\n` : ''}${name ? `event: ${name}\n` : ''}${lines}\n`);
    return this.res.writableLength <= this.maxBufferedBytes;
  }

  /** `event` with the value as one line of JSON. */
  json(name: string | undefined, value: unknown): boolean {
    return this.event(name, JSON.stringify(value));
  }

  /** Sends the status line and headers now, so the client knows the stream is open before its first event. */
  flush(): void {
    if (!this.started && this.open) this.start();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keepAlive);
    if (!this.started && !this.res.headersSent) this.start();
    if (!this.res.destroyed) this.res.end();
  }

  private start(): void {
    this.started = true;
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      // nginx and similar proxies buffer responses unless told not to; a buffered stream arrives all at once.
      'X-Accel-Buffering': 'no',
    });
    this.res.flushHeaders();
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), this.keepAliveMs);
    this.keepAlive.unref();
    this.res.on('close', () => clearInterval(this.keepAlive));
  }

  private write(chunk: string): void {
    if (!this.open) return;
    if (!this.started) this.start();
    this.res.write(chunk);
  }
}
