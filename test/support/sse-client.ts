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
