import type { ServerResponse } from 'node:http';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { SseResponse } from '../../../common/http/sse-response';
import { A2A_MESSAGES, MAX_STREAM_BACKLOG_BYTES, STREAM_HEARTBEAT_MS } from '../protocol/limits-and-messages';
import type { A2aStreamResult } from '../operations/call-outcome';

/** How a binding frames a stream: each item's result JSON as an event's data, and the error that ends a stream early. */
export interface StreamFraming {
  item(resultJson: string): string;
  error(error: AppError): { event?: string; data: string };
}

/**
 * Answers a streaming call over SSE (docs/a2a-streaming.md): every item as an event whose `id` is the task's event
 * number (what `Last-Event-ID` resumes from), until the stream ends. A client that falls more than
 * MAX_STREAM_BACKLOG_BYTES behind gets an error event and the stream is closed (its task goes on); a client that
 * leaves stops its stream and nothing else. Secrets are masked by SseResponse, as in every response.
 */
export function answerWithStream(res: ServerResponse, result: A2aStreamResult, framing: StreamFraming): void {
  const sse = new SseResponse(res, { keepAliveMs: STREAM_HEARTBEAT_MS, maxBufferedBytes: MAX_STREAM_BACKLOG_BYTES });
  const { stream } = result;
  const fail = (error: AppError) => {
    const frame = framing.error(error);
    sse.event(frame.event, frame.data);
    sse.end();
  };
  sse.flush();
  res.once('close', () => stream.close());
  stream.pipe({
    item: (item) => {
      if (!sse.open) return stream.close();
      if (sse.event(undefined, framing.item(result.render(item)), String(item.id))) return;
      stream.close();
      fail(new AppError(ErrorCode.Unavailable, A2A_MESSAGES.streamFellBehind));
    },
    end: () => sse.end(),
    fail,
  });
}
