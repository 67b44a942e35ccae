import type { DestinationStream } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { maskingDestination } from '../secrets/masking-destination';
import type { LogSettings } from './log-settings';

/**
 * Where pino writes: the target (stdout), each line first through the secret masker (secret-mask.ts: the JSON line,
 * so a secret is caught wherever it sits), then — in `pretty` format — turned into one readable line by
 * pino-pretty's formatter, in this thread and synchronously (no worker, no stream: a line is written when it is
 * logged, as in JSON): time, level, context, the message, the request id and trace id; the event's fields are in the
 * JSON format only (every message says what they say).
 */
export function logDestination(settings: LogSettings): DestinationStream {
  if (settings.format === 'json') return maskingDestination(settings.target);
  const prettify = prettyFactory({
    colorize: settings.target.isTTY === true,
    translateTime: "UTC:yyyy-mm-dd'T'HH:MM:ss.l'Z'",
    // The message says what the event's fields say (each line is written to read well alone); errors keep their stack.
    include: 'level,time,err',
    messageFormat: '{if context}[{context}] {end}{msg}{if reqId} (req {reqId}){end}{if trace_id} (trace {trace_id}){end}',
    singleLine: true,
  });
  return maskingDestination({ write: (line: string) => settings.target.write(prettify(line)) });
}
