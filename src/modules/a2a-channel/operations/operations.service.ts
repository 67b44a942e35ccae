import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { AppError } from '../../../common/errors/app-error';
import { CLAWGATE } from '../../../common/telemetry/span-attributes';
import { ErrorCode } from '../../../common/errors/error-code';
import { jsonDepthExceeds } from '../../../common/json-depth';
import type { A2aWireVersion } from '../../../common/a2a-protocol';
import { ConfigStore } from '../../config';
import { GatewayMetrics, type A2aBinding } from '../../metrics';
import type { A2aCallOutcome } from './call-outcome';
import { A2aRequestLog } from './request-log';
import { A2A_MESSAGES, MAX_PARAMS_DEPTH, RATE_LIMIT_WINDOW_MS } from '../protocol/limits-and-messages';
import { type A2aOperation, isStreamingOperation, resolveA2aMethod } from '../protocol/methods';
import { A2aTaskService } from './task.service';
import { A2aTaskStreams } from './task-streams.service';
import { A2aPushConfigs } from './push-configs.service';
import { wireCodec } from '../protocol/wire-codec';
import type { TaskEventStream } from '../streaming/task-event-stream';
import { ExtendedAgentCardService } from './extended-agent-card';
import { invalidParams } from '../protocol/errors';
import type { RateLimitWindows } from '../../../common/rate-limit/rate-limit-windows';

/**
 * The per-peer rate-limit windows the operations take a slot from: in-process, or with gateway.cluster shared by every
 * replica (the module builds them with the cluster's `rateLimitWindows`).
 */
export const RATE_LIMITER = Symbol('A2A_RATE_LIMITER');
/** The namespace of the per-peer windows in Redis (`clawgate:ratelimit:a2a-peer:<peer>`). */
export const PEER_RATE_LIMIT_NAMESPACE = 'a2a-peer';

/** Who is calling: the authenticated peer, and the origin its Agent Cards publish (derived only when a card is asked for). */
export interface A2aCaller {
  peer: string;
  origin: () => string;
}

export interface A2aCallOptions {
  /** A call that is answered (not a JSON-RPC notification): SendMessage then blocks for the reply. */
  wait: boolean;
  /**
   * The A2A version the call is read and answered in: its params and result cross that version's codec
   * (wire-codec.ts), so the task service sees 1.0 only. The error's form is the binding's to translate.
   */
  wire: A2aWireVersion;
  /** The request asked for an A2A version this endpoint does not speak: the call gets that error, whatever it is. */
  versionError?: AppError;
  /**
   * The call's params, built only once the method is known to be offered: an unsupported operation answers as
   * such whatever its parameters look like, and a binding's translation errors (a bad query parameter) come after
   * the version and method checks, exactly where a JSON-RPC caller's params errors come.
   */
  params: () => unknown;
  /** The binding can answer this call with an event stream (a single JSON-RPC call, an SSE route); else streaming is refused. */
  stream?: boolean;
  /** The request's `Last-Event-ID` (a client resuming a stream). */
  lastEventId?: string;
  /** Which binding the call came in on, for its log line and series. */
  binding: A2aBinding;
}

/**
 * The A2A operations as both bindings call them (JSON-RPC in A2aRpcService, HTTP+JSON in A2aRestEndpoint): the
 * per-peer rate limit, then for each call the version check, the method, the params depth limit, the version's
 * codec and the task service (or the extended Agent Card). A binding only translates its wire format to a method
 * name and params and the outcome back, so the two answer every request the same way. Limits and errors:
 * docs/a2a.md#limits-and-errors.
 */
@Injectable()
export class A2aOperations implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('a2a');
  private readonly requestLog: A2aRequestLog;
  private unsubscribe?: () => void;

  constructor(
    private readonly config: ConfigStore,
    // Typed to the operations it dispatches, so the bindings can run over a stand-in task service.
    @Inject(A2aTaskService) private readonly tasks: Pick<A2aTaskService, 'sendMessage' | 'getTask' | 'cancelTask' | 'listTasks'>,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimitWindows,
    @Inject(ExtendedAgentCardService) private readonly cards: Pick<ExtendedAgentCardService, 'extendedCard'>,
    @Inject(A2aTaskStreams) private readonly streams: Pick<A2aTaskStreams, 'sendStreamingMessage' | 'subscribeToTask'>,
    @Inject(A2aPushConfigs) private readonly pushConfigs: Pick<A2aPushConfigs, 'create' | 'get' | 'list' | 'remove'>,
    @Optional() private readonly metrics: GatewayMetrics = new GatewayMetrics(),
  ) {
    this.requestLog = new A2aRequestLog(metrics);
  }

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

  /** Takes one of the peer's slots of the current minute; false when it has none left. `rateLimitPerMinute: 0` is off. */
  admit(peer: string): boolean | Promise<boolean> {
    const granted = this.admitMany(peer, 1);
    return typeof granted === 'number' ? granted === 1 : granted.then((n) => n === 1);
  }

  /**
   * Takes up to `count` slots at once, in order (a JSON-RPC batch: one round trip to Redis in cluster mode);
   * resolves with how many were granted, so the first that many requests run and the rest are limited.
   */
  admitMany(peer: string, count: number): number | Promise<number> {
    const limit = this.config.current().config.channels.a2a.rateLimitPerMinute;
    if (limit === 0) return count;
    // Synchronous while the windows are this process's own: every request passes here, so no promise for it.
    const taken = this.limiter.take(peer, count, limit, RATE_LIMIT_WINDOW_MS);
    const counted = (granted: number) => {
      for (let refused = granted; refused < count; refused++) this.metrics.rateLimited('a2a', peer);
      return granted;
    };
    return typeof taken === 'number' ? counted(taken) : taken.then(counted);
  }

  /** One call by its A2A method name (1.0 or 0.3). Never rejects: a failure is an outcome with the error to answer. */
  async call(caller: A2aCaller, method: string, options: A2aCallOptions): Promise<A2aCallOutcome> {
    const startedAt = performance.now();
    const outcome = await this.dispatch(caller, method, options);
    this.requestLog.served(caller.peer, method, options.binding, outcome, startedAt);
    return outcome;
  }

  private async dispatch(caller: A2aCaller, method: string, options: A2aCallOptions): Promise<A2aCallOutcome> {
    // The request's server span (while tracing is on) names the method and the authenticated peer.
    trace.getActiveSpan()?.setAttributes({ [CLAWGATE.a2aMethod]: method, [CLAWGATE.peer]: caller.peer });
    try {
      // Before the method: what a method means depends on the version it is asked in.
      if (options.versionError) throw options.versionError;
      const operation = resolveA2aMethod(method);
      const params = options.params();
      if (jsonDepthExceeds(params, MAX_PARAMS_DEPTH)) throw invalidParams(`params are nested more than ${MAX_PARAMS_DEPTH} levels deep`);
      const codec = wireCodec(options.wire);
      if (isStreamingOperation(operation)) {
        if (!options.stream) throw new AppError(ErrorCode.UnsupportedOperation, A2A_MESSAGES.streamNotBatched);
        const stream = await this.openStream(operation, caller, codec.params(operation, params), options.lastEventId, options.wire);
        return { ok: true, stream: { stream, render: (item) => codec.streamItem(item.body, item.closes) } };
      }
      const result = await this.run(operation, caller, codec.params(operation, params), options);
      return { ok: true, result: codec.result(operation, result) };
    } catch (err) {
      if (err instanceof AppError && err.code !== ErrorCode.Internal) return { ok: false, error: err };
      // Internals stay in the log; the peer learns only that it failed.
      this.logger.error(`A2A ${method} from peer ${caller.peer} failed: ${(err as Error)?.stack ?? String(err)}`);
      return { ok: false, error: new AppError(ErrorCode.Internal, A2A_MESSAGES.internal) };
    }
  }

  private openStream(
    operation: A2aOperation,
    caller: A2aCaller,
    params: unknown,
    lastEventId: string | undefined,
    wire: A2aWireVersion,
  ): Promise<TaskEventStream> {
    if (operation === 'sendStreamingMessage') return this.streams.sendStreamingMessage(caller.peer, params, wire);
    return this.streams.subscribeToTask(caller.peer, params, lastEventId);
  }

  /**
   * Not async: each case's own answer (a promise or a value) is returned as it is; dispatch awaits it inside its
   * try, so a throw here is caught too.
   */
  private run(operation: A2aOperation, caller: A2aCaller, params: unknown, options: A2aCallOptions): unknown {
    const { peer } = caller;
    switch (operation) {
      case 'sendMessage':
        return this.tasks.sendMessage(peer, params, { wait: options.wait, wire: options.wire });
      case 'getTask':
        return this.tasks.getTask(peer, params);
      case 'cancelTask':
        return this.tasks.cancelTask(peer, params);
      case 'listTasks':
        return this.tasks.listTasks(peer, params);
      case 'getExtendedAgentCard':
        return this.cards.extendedCard(peer, caller.origin(), params, options.wire);
      case 'sendStreamingMessage':
      case 'subscribeToTask':
        throw new Error(`${operation} is answered with a stream (openStream)`);
      case 'createPushConfig':
        return this.pushConfigs.create(peer, params, options.wire);
      case 'getPushConfig':
        return this.pushConfigs.get(peer, params);
      case 'listPushConfigs':
        return this.pushConfigs.list(peer, params);
      case 'deletePushConfig':
        return this.pushConfigs.remove(peer, params);
      default: {
        const unknown: never = operation;
        throw new Error(`no handler for A2A operation ${String(unknown)}`);
      }
    }
  }
}
