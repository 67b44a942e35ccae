import type { ServerResponse } from 'node:http';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { SseWriter } from '../../common/http/sse-writer';
import { maskSecrets } from '../../common/secrets/secret-mask';
import { A2A_MESSAGES, MAX_STREAM_BACKLOG_BYTES, STREAM_HEARTBEAT_MS } from './a2a-limits';
import type { A2aStreamResult } from './a2a-operations.service';

/** How a binding frames a stream: each item's result JSON as an event's data, and the error that ends a stream early. */
export interface StreamFraming {
  item(resultJson: string): string;
  error(error: AppError): { event?: string; data: string };
}

/**
 * Answers a streaming call over SSE (docs/a2a-streaming.md): every item as an event whose `id` is the task's event
 * number (what `Last-Event-ID` resumes from), until the stream ends. A client that falls more than
 * MAX_STREAM_BACKLOG_BYTES behind gets an error event and the stream is closed (its task goes on); a client that
 * leaves stops its stream and nothing else.
 */
export function answerWithStream(res: ServerResponse, result: A2aStreamResult, framing: StreamFraming): void {
  const sse = new SseWriter(res, { maxBufferedBytes: MAX_STREAM_BACKLOG_BYTES, heartbeatMs: STREAM_HEARTBEAT_MS });
  const { stream } = result;
  const fail = (error: AppError) => {
    // The gateway-wide safety net (see SecretShield): a configured secret in a message never leaves verbatim.
    const frame = framing.error(error);
    sse.send({ ...frame, data: maskSecrets(frame.data) });
    sse.end();
  };
  sse.open();
  res.once('close', () => stream.close());
  stream.pipe({
    item: (item) => {
      if (sse.closed) return stream.close();
      const keptUp = sse.send({ id: String(item.id), data: maskSecrets(framing.item(result.render(item))) });
      if (keptUp) return;
      stream.close();
      fail(new AppError(ErrorCode.Unavailable, A2A_MESSAGES.streamFellBehind));
    },
    end: () => sse.end(),
    fail,
  });
}
