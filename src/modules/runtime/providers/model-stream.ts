import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ModelProviderSettings } from '../../config';
import { parseJsonBody, postToModel, providerError, type PostJsonInput } from './http-json';

/** What a streaming call got: server-sent events, or a plain JSON body from a server that ignored `stream`. */
export type StreamedBody = { kind: 'events' } | { kind: 'json'; body: unknown };

/** Handles one event; `'stop'` ends the read (the API's own end marker: `[DONE]`, `message_stop`). */
export type StreamEventHandler = (event: EventSourceMessage) => 'stop' | void;

/**
 * POSTs a streaming request and feeds each server-sent event to `onEvent` as it arrives, in order. The
 * event-stream framing is parsed by eventsource-parser; what the events mean is the provider's business.
 * A 2xx answer that is not `text/event-stream` comes back as JSON, so a compatible server that does not
 * stream still works. Errors, timeouts and aborts behave as in postJson (the timeout covers the whole
 * stream); an error thrown by `onEvent` ends the read and closes the connection.
 */
export function postForEvents(input: PostJsonInput, onEvent: StreamEventHandler): Promise<StreamedBody> {
  return postToModel(input, async (res): Promise<StreamedBody> => {
    const type = res.headers.get('content-type') ?? '';
    if (!/^text\/event-stream/i.test(type)) return { kind: 'json', body: parseJsonBody(input.settings, await res.text()) };
    if (!res.body) throw providerError(input.settings, `model provider ${input.settings.name} sent an event stream without a body`);
    await readEvents(input.settings, res.body, onEvent);
    return { kind: 'events' };
  });
}

/** Most characters of one event the parser buffers; a model's chunk is a few hundred, a tool call a few thousand. */
const MAX_EVENT_CHARS = 4 * 1024 * 1024;

async function readEvents(settings: ModelProviderSettings, body: ReadableStream<Uint8Array>, onEvent: StreamEventHandler): Promise<void> {
  // Events are queued and handled after each feed: a handler that throws must not throw out of the parser.
  const queue: EventSourceMessage[] = [];
  let framing: Error | undefined;
  const parser = createParser({
    onEvent: (event) => queue.push(event),
    onError: (err) => {
      // Unknown fields are legal SSE (they are ignored); only an oversized event is a broken stream.
      if (err.type === 'max-buffer-size-exceeded') framing = err;
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) parser.reset({ consume: true });
      else parser.feed(value);
      if (framing) throw providerError(settings, `model provider ${settings.name} sent a malformed event stream: ${framing.message}`);
      while (queue.length) if (onEvent(queue.shift()!) === 'stop') return;
      if (done) return;
    }
  } finally {
    // Stopping early (end marker, error, abort) hangs up instead of draining whatever the server still sends.
    await reader.cancel().catch(() => undefined);
  }
}
