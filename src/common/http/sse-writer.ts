import type { ServerResponse } from 'node:http';

/** One Server-Sent Event: `id` and `event` are optional fields, `data` may span lines. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

export interface SseWriterOptions {
  /** Bytes the client may fall behind (queued in the response, unsent) before `send` reports it. */
  maxBufferedBytes: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
}

/**
 * A `text/event-stream` response written by hand (the format is four field names and blank lines): the headers
 * that keep proxies from buffering it, events framed per the HTML Living Standard's SSE rules (a `data:` line per
 * line of data), heartbeats, and a bound on how far a slow client may fall behind.
 */
export class SseWriter {
  private heartbeat?: NodeJS.Timeout;
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: SseWriterOptions,
  ) {}

  /** Sends the 200 and the stream headers at once, so the client knows the stream is open before the first event. */
  open(): void {
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      // nginx buffers proxied responses unless told not to; an event must reach the client when it happens.
      'X-Accel-Buffering': 'no',
    });
    this.res.flushHeaders();
    this.heartbeat = setInterval(() => this.write(': keep-alive\n\n'), this.options.heartbeatMs);
    this.heartbeat.unref();
    this.res.once('close', () => this.stop());
  }

  /** Writes one event; false when the client is more than `maxBufferedBytes` behind (the caller should end the stream). */
  send(event: SseEvent): boolean {
    let frame = '';
    if (event.id !== undefined) frame += `id: ${event.id}\n`;
    if (event.event !== undefined) frame += `event: ${event.event}\n`;
    for (const line of event.data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
    this.write(`${frame}\n`);
    return this.res.writableLength <= this.options.maxBufferedBytes;
  }

  end(): void {
    this.stop();
    if (!this.res.writableEnded) this.res.end();
  }

  /** The client is gone or the stream ended. */
  get closed(): boolean {
    return this.ended || this.res.destroyed;
  }

  private write(text: string): void {
    if (!this.closed) this.res.write(text);
  }

  private stop(): void {
    this.ended = true;
    clearInterval(this.heartbeat);
  }
}
