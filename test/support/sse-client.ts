import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** An open SSE response read event by event (eventsource-parser does the framing). */
export interface SseReader {
  readonly response: Response;
  /** The next event; undefined once the stream has ended. */
  next(): Promise<EventSourceMessage | undefined>;
  /** Every remaining event until the server ends the stream. */
  rest(): Promise<EventSourceMessage[]>;
  /** Drops the connection (a network blip, as far as the server can tell). */
  close(): void;
}

/**
 * Opens `url` with `init` (its body and headers as given) and reads the answer as an event stream; an answer that is
 * not `text/event-stream` (an error before any stream opened) is left unread in `response`.
 */
export async function openSse(url: string, init: RequestInit): Promise<SseReader> {
  const abort = new AbortController();
  const response = await fetch(url, { ...init, signal: abort.signal });
  const queue: EventSourceMessage[] = [];
  const waiting: Array<() => void> = [];
  let ended = !response.headers.get('content-type')?.startsWith('text/event-stream');
  const wake = () => waiting.splice(0).forEach((resolve) => resolve());
  const parser = createParser({ onEvent: (event) => (queue.push(event), wake()) });
  void (async () => {
    if (ended) return;
    try {
      const decoder = new TextDecoder();
      for await (const chunk of response.body ?? []) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      // Aborted by close(), or the server dropped us: the stream is over either way.
    } finally {
      ended = true;
      wake();
    }
  })();
  const next = async (): Promise<EventSourceMessage | undefined> => {
    while (!queue.length && !ended) await new Promise<void>((resolve) => waiting.push(resolve));
    return queue.shift();
  };
  return {
    response,
    next,
    rest: async () => {
      const all: EventSourceMessage[] = [];
      for (let e = await next(); e; e = await next()) all.push(e);
      return all;
    },
    close: () => abort.abort(),
  };
}

/** A server-sent event as a test client received it, with when it arrived (ms after the request was sent). */
export interface ReceivedEvent extends EventSourceMessage {
  atMs: number;
}

export interface SseAnswer {
  status: number;
  headers: Headers;
  /** Every event, in order (empty when the answer was not an event stream). */
  events: ReceivedEvent[];
  /** The raw body text, to check for things that must never appear in it. */
  raw: string;
}

/**
 * POSTs JSON with fetch and reads the answer to its end as Server-Sent Events (eventsource-parser), recording
 * the arrival time of each event. `stopAfter` hangs up once that many events came (a client that leaves early).
 */
export async function postForSse(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  options: { stopAfter?: number } = {},
): Promise<SseAnswer> {
  const started = Date.now();
  const controller = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: controller.signal,
  });
  const events: ReceivedEvent[] = [];
  const parser = createParser({ onEvent: (event) => events.push({ ...event, atMs: Date.now() - started }) });
  let raw = '';
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      raw += text;
      if (/^text\/event-stream/.test(res.headers.get('content-type') ?? '')) parser.feed(text);
      if (options.stopAfter !== undefined && events.length >= options.stopAfter) {
        controller.abort();
        break;
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  }
  return { status: res.status, headers: res.headers, events, raw };
}

/** The data of each event parsed as JSON, with the event name: `[['run', {...}], ['delta', {...}], …]`. */
export function eventsAsJson(events: EventSourceMessage[]): Array<[string | undefined, any]> {
  return events.map((e) => [e.event, e.data === '[DONE]' ? e.data : JSON.parse(e.data)]);
}
