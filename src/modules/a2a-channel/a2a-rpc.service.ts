import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ConfigStore } from '../config';
import { A2A_MESSAGES, MAX_BATCH_ENTRIES, MAX_PARAMS_DEPTH, MAX_RESPONSE_BYTES, RATE_LIMIT_WINDOW_MS } from './a2a-limits';
import { type A2aOperation, resolveA2aMethod } from './a2a-methods';
import { A2aTaskService } from './a2a-task.service';
import { ExtendedAgentCardService } from './extended-agent-card';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { jsonDepthExceeds } from '../../common/json-depth';
import {
  errorResponse,
  invalidParams,
  JsonRpcId,
  jsonRpcErrorOf,
  JsonRpcResponse,
  ParsedEntry,
  parseEntry,
  resultResponse,
  RPC_CODES,
} from './json-rpc';
import { RATE_LIMITER, RateLimiter } from './rate-limiter';
import { type RequestVersion, wireVersionOf } from './a2a-version';
import { wireCodec } from './a2a-wire-codec';

const PARSE_ERROR = { code: RPC_CODES.parseError, message: 'Parse error' };
const INVALID_REQUEST = { code: RPC_CODES.invalidRequest, message: 'Invalid Request' };
const RATE_LIMITED = { code: RPC_CODES.serverError, message: A2A_MESSAGES.rateLimited };
const INTERNAL = { code: RPC_CODES.serverError, message: A2A_MESSAGES.internal };
const TOO_LARGE = { code: RPC_CODES.serverError, message: A2A_MESSAGES.responseTooLarge };
const BATCH_TOO_LARGE = { code: RPC_CODES.serverError, message: A2A_MESSAGES.batchTooLarge };

/** Who is calling: the authenticated peer, and the origin its Agent Cards publish (derived only when a card is asked for). */
export interface A2aCaller {
  peer: string;
  origin: () => string;
}

/**
 * JSON-RPC 2.0 processing of one authenticated request body: parsing, batches, per-peer rate
 * limiting, method dispatch, error mapping and the response size cap. Returns the response body; an empty
 * string when every entry was a notification. Limits and error codes: docs/a2a.md#limits-and-errors.
 */
@Injectable()
export class A2aRpcService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('a2a');
  private unsubscribe?: () => void;

  constructor(
    private readonly config: ConfigStore,
    // Typed to the two operations it dispatches, so the JSON-RPC framing can run over a stand-in task service.
    @Inject(A2aTaskService) private readonly tasks: Pick<A2aTaskService, 'sendMessage' | 'getTask' | 'cancelTask' | 'listTasks'>,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(ExtendedAgentCardService) private readonly cards: Pick<ExtendedAgentCardService, 'extendedCard'>,
  ) {}

  onModuleInit(): void {
    // A removed peer's window would otherwise live forever; a re-added peer starts fresh.
    this.unsubscribe = this.config.onApplied((_prev, next) => {
      const { enabled, peers } = next.config.channels.a2a;
      for (const key of this.limiter.keys()) {
        if (!enabled || !Object.prototype.hasOwnProperty.call(peers, key)) this.limiter.forget(key);
      }
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /**
   * `version`: what the request declared (`A2A-Version`); each call is answered in that version, or, without
   * one, in the version its method name belongs to. A declared version this endpoint does not speak is the
   * answer to every call.
   */
  async handle(caller: A2aCaller, body: Buffer, version: RequestVersion = {}): Promise<string> {
    const { peer } = caller;
    const limit = this.config.current().config.channels.a2a.rateLimitPerMinute;
    // Every entry counts, valid or not, so garbage cannot be sent for free; limit 0 switches the limiter off.
    const admit = () => limit === 0 || this.limiter.tryTake(peer, limit, RATE_LIMIT_WINDOW_MS);
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      return serialize(errorResponse(null, admit() ? PARSE_ERROR : RATE_LIMITED));
    }
    if (!Array.isArray(payload)) {
      if (typeof payload !== 'object' || payload === null) return serialize(errorResponse(null, admit() ? INVALID_REQUEST : RATE_LIMITED));
      const response = await this.process(caller, parseEntry(payload), admit(), version);
      return response ? serialize(response) : '';
    }
    if (!payload.length) return serialize(errorResponse(null, admit() ? INVALID_REQUEST : RATE_LIMITED));
    // Refused whole and before any entry runs, even with rate limiting off.
    if (payload.length > MAX_BATCH_ENTRIES) return serialize(errorResponse(null, admit() ? BATCH_TOO_LARGE : RATE_LIMITED));
    // Slots are taken in entry order before anything runs; the entries then run concurrently.
    const admitted = payload.map((entry) => ({ entry: parseEntry(entry), allowed: admit() }));
    const responses = await Promise.all(admitted.map(({ entry, allowed }) => this.process(caller, entry, allowed, version)));
    return serializeBatch(responses.filter((r): r is JsonRpcResponse => r !== undefined));
  }

  /** Runs one operation; `wait`: a call (not a notification) of SendMessage blocks for the reply. */
  private async run(operation: A2aOperation, caller: A2aCaller, params: unknown, wait: boolean): Promise<unknown> {
    const { peer } = caller;
    switch (operation) {
      case 'sendMessage':
        return this.tasks.sendMessage(peer, params, { wait });
      case 'getTask':
        return this.tasks.getTask(peer, params);
      case 'cancelTask':
        return this.tasks.cancelTask(peer, params);
      case 'listTasks':
        return this.tasks.listTasks(peer, params);
      case 'getExtendedAgentCard':
        return this.cards.extendedCard(peer, caller.origin(), params);
      default: {
        const unknown: never = operation;
        throw new Error(`no handler for A2A operation ${String(unknown)}`);
      }
    }
  }

  /** One entry's response, or undefined for a notification (which is never answered, whatever happens). */
  private async process(
    caller: A2aCaller,
    entry: ParsedEntry,
    allowed: boolean,
    version: RequestVersion,
  ): Promise<JsonRpcResponse | undefined> {
    const id: JsonRpcId = entry.kind === 'notification' ? null : entry.id;
    if (!allowed) return entry.kind === 'notification' ? undefined : errorResponse(id, RATE_LIMITED);
    if (entry.kind === 'invalid') return errorResponse(id, INVALID_REQUEST);
    const call = entry.kind === 'call';
    const wire = wireCodec(wireVersionOf(version, entry.method));
    try {
      // Before the method: what a method means depends on the version it is asked in.
      if (version.problem) throw version.problem;
      const operation = resolveA2aMethod(entry.method);
      if (jsonDepthExceeds(entry.params, MAX_PARAMS_DEPTH)) {
        throw invalidParams(`params are nested more than ${MAX_PARAMS_DEPTH} levels deep`);
      }
      const result = await this.run(operation, caller, wire.params(operation, entry.params), call);
      return call ? resultResponse(id, wire.result(operation, result)) : undefined;
    } catch (err) {
      if (err instanceof AppError && err.code !== ErrorCode.Internal)
        return call ? errorResponse(id, wire.error(jsonRpcErrorOf(err))) : undefined;
      // Internals stay in the log; the peer learns only that it failed.
      this.logger.error(`A2A ${entry.method} from peer ${caller.peer} failed: ${(err as Error)?.stack ?? String(err)}`);
      return call ? errorResponse(id, INTERNAL) : undefined;
    }
  }
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
