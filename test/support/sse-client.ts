import { createParser, type EventSourceMessage } from 'eventsource-parser';

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
