import { Injectable } from '@nestjs/common';
import { A2A_MESSAGES, MAX_BATCH_ENTRIES, MAX_RESPONSE_BYTES } from '../../protocol/limits-and-messages';
import { AppError } from '../../../../common/errors/app-error';
import { ConfigStore } from '../../../config';
import { readA2aRequest } from '../../operations/a2a-request';
import { renderResult } from '../../operations/a2a-result';
import type { A2aStreamResult } from '../../operations/call-outcome';
import { type A2aCaller, A2aOperations } from '../../operations/operations.service';
import type { RequestVersion } from '../../protocol/versions';
import { errorResponse, JsonRpcId, jsonRpcErrorOf, JsonRpcResponse, ParsedEntry, parseEntry, resultResponse, RPC_CODES } from './json-rpc';

const PARSE_ERROR = { code: RPC_CODES.parseError, message: 'Parse error' };
const INVALID_REQUEST = { code: RPC_CODES.invalidRequest, message: 'Invalid Request' };
const RATE_LIMITED = { code: RPC_CODES.serverError, message: A2A_MESSAGES.rateLimited };
const TOO_LARGE = { code: RPC_CODES.serverError, message: A2A_MESSAGES.responseTooLarge };
const BATCH_TOO_LARGE = { code: RPC_CODES.serverError, message: A2A_MESSAGES.batchTooLarge };

/** A single call answered with a stream: its events, and how an error that ends it early is framed (a JSON-RPC error response). */
export interface RpcStreamAnswer {
  id: JsonRpcId;
  result: A2aStreamResult;
  error(error: AppError): string;
}

/**
 * JSON-RPC 2.0 processing of one authenticated request body: parsing, batches, per-peer rate limiting (a slot
 * per entry), each entry read once into an A2A request (readA2aRequest) that A2aOperations answers, its outcome
 * rendered with the request's codec, and the response size cap. Returns the response body; an empty string when every
 * entry was a notification. Limits and error codes: docs/a2a.md#limits-and-errors.
 */
@Injectable()
export class A2aRpcService {
  constructor(
    private readonly config: ConfigStore,
    private readonly operations: A2aOperations,
  ) {}

  /**
   * `version`: what the request declared (`A2A-Version`); each call is answered in that version, or, without
   * one, in the version its method name belongs to. A declared version this endpoint does not speak is the
   * answer to every call. A single streaming call (SendStreamingMessage, SubscribeToTask) is answered with its
   * stream; `lastEventId` is the request's `Last-Event-ID`.
   */
  async handle(caller: A2aCaller, body: Buffer, version: RequestVersion = {}, lastEventId?: string): Promise<string | RpcStreamAnswer> {
    // Every entry counts, valid or not, so garbage cannot be sent for free.
    const admit = () => this.operations.admit(caller.peer);
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      return serialize(errorResponse(null, (await admit()) ? PARSE_ERROR : RATE_LIMITED));
    }
    if (!Array.isArray(payload)) {
      if (typeof payload !== 'object' || payload === null)
        return serialize(errorResponse(null, (await admit()) ? INVALID_REQUEST : RATE_LIMITED));
      // Awaited only when the windows are shared (a cluster): in one process the answer is there at once.
      const admitted = admit();
      const allowed = typeof admitted === 'boolean' ? admitted : await admitted;
      const response = await this.process(caller, parseEntry(payload), allowed, version, { single: true, lastEventId });
      if (!response) return '';
      return isStreamAnswer(response) ? response : serialize(response);
    }
    if (!payload.length) return serialize(errorResponse(null, (await admit()) ? INVALID_REQUEST : RATE_LIMITED));
    // Refused whole and before any entry runs, even with rate limiting off.
    if (payload.length > MAX_BATCH_ENTRIES) return serialize(errorResponse(null, (await admit()) ? BATCH_TOO_LARGE : RATE_LIMITED));
    // Slots are taken in entry order, all at once, before anything runs; the entries then run concurrently.
    const granted = await this.operations.admitMany(caller.peer, payload.length);
    const admitted = payload.map((entry, index) => ({ entry: parseEntry(entry), allowed: index < granted }));
    const responses = await Promise.all(
      admitted.map(({ entry, allowed }) => this.process(caller, entry, allowed, version, { single: false })),
    );
    return serializeBatch(responses.filter((r): r is JsonRpcResponse => r !== undefined && !isStreamAnswer(r)));
  }

  /**
   * One entry's response, or undefined for a notification (which is never answered, whatever happens). Only a
   * single call (`single`, not a notification) may be answered with a stream.
   */
  private async process(
    caller: A2aCaller,
    entry: ParsedEntry,
    allowed: boolean,
    version: RequestVersion,
    request: { single: boolean; lastEventId?: string },
  ): Promise<JsonRpcResponse | RpcStreamAnswer | undefined> {
    const id: JsonRpcId = entry.kind === 'notification' ? null : entry.id;
    if (!allowed) return entry.kind === 'notification' ? undefined : errorResponse(id, RATE_LIMITED);
    if (entry.kind === 'invalid') return errorResponse(id, INVALID_REQUEST);
    const call = entry.kind === 'call';
    // Read once: the version the call is answered in, its codec, the operation and its params.
    const a2a = readA2aRequest({
      method: entry.method,
      version,
      params: () => entry.params,
      canStream: request.single && call,
      files: this.config.current().config.channels.a2a.files,
    });
    const outcome = await this.operations.call(caller, a2a, { wait: call, lastEventId: request.lastEventId, binding: 'jsonrpc' });
    if (!call) {
      if (outcome.ok && 'stream' in outcome) outcome.stream.stream.close();
      return undefined;
    }
    const errorOf = (error: AppError) => errorResponse(id, a2a.codec.error(jsonRpcErrorOf(error)));
    if (!outcome.ok) return errorOf(outcome.error);
    if ('stream' in outcome) return { id, result: outcome.stream, error: (error) => JSON.stringify(errorOf(error)) };
    return resultResponse(id, renderResult(outcome.result, a2a.codec));
  }
}

function isStreamAnswer(response: JsonRpcResponse | RpcStreamAnswer): response is RpcStreamAnswer {
  return typeof (response as RpcStreamAnswer).error === 'function';
}

/** UTF-8 size, or a bound below the cap: a UTF-16 unit is at most 3 bytes, so most responses skip the exact count. */
function byteLength(text: string): number {
  return text.length * 3 <= MAX_RESPONSE_BYTES ? text.length : Buffer.byteLength(text, 'utf8');
}

/** A single response; one over 1 MiB is replaced by a -32000 error with the same id. */
function serialize(response: JsonRpcResponse): string {
  const text = JSON.stringify(response);
  return byteLength(text) > MAX_RESPONSE_BYTES ? JSON.stringify(errorResponse(response.id, TOO_LARGE)) : text;
}

/**
 * A batch response; when the whole array is over 1 MiB, its largest entries are replaced by -32000 errors
 * (keeping their ids) until it fits, so small results in the same batch still get through.
 */
function serializeBatch(responses: JsonRpcResponse[]): string {
  if (!responses.length) return '';
  const parts = responses.map((r) => JSON.stringify(r));
  const sizes = parts.map(byteLength);
  let total = sizes.reduce((a, b) => a + b, 0) + parts.length + 1;
  if (total > MAX_RESPONSE_BYTES) {
    const largestFirst = parts.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a]);
    for (const i of largestFirst) {
      if (total <= MAX_RESPONSE_BYTES) break;
      parts[i] = JSON.stringify(errorResponse(responses[i].id, TOO_LARGE));
      total += Buffer.byteLength(parts[i], 'utf8') - sizes[i];
    }
  }
  return `[${parts.join(',')}]`;
}
