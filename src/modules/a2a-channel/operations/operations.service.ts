import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { AppError } from '../../../common/errors/app-error';
import { CLAWGATE } from '../../../common/telemetry/span-attributes';
import { ErrorCode } from '../../../common/errors/error-code';
import type { A2aWireVersion } from '../../../common/a2a-protocol';
import { ConfigStore } from '../../config';
import { GatewayMetrics, type A2aBinding } from '../../metrics';
import type { A2aCallOutcome } from './call-outcome';
import type { A2aRequest, A2aStreamCall, A2aUnaryCall } from './a2a-request';
import type { A2aResult } from './a2a-result';
import { A2aRequestLog } from './request-log';
import { A2A_MESSAGES, RATE_LIMIT_WINDOW_MS } from '../protocol/limits-and-messages';
import { A2aTaskService } from './task.service';
import { A2aTaskStreams } from './task-streams.service';
import { A2aPushConfigs } from './push-configs.service';
import type { TaskEventStream } from '../streaming/task-event-stream';
import { ExtendedAgentCardService } from './extended-agent-card';
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
  /** The request's `Last-Event-ID` (a client resuming a stream). */
  lastEventId?: string;
  /** Which binding the call came in on, for its log line and series. */
  binding: A2aBinding;
}

/**
 * The A2A operations as both bindings call them (JSON-RPC in A2aRpcService, HTTP+JSON in A2aRestEndpoint): the
 * per-peer rate limit, then each call as the binding read it (readA2aRequest: version, method, params as domain types)
 * to the task service, the streams, the push configs or the extended Agent Card, and its domain result back (A2aResult),
 * logged once. A binding only reads its wire format into a request and renders the outcome with the request's codec,
 * so the two answer every request the same way. Limits and errors: docs/a2a.md#limits-and-errors.
 */
@Injectable()
export class A2aOperations implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('a2a');
  private readonly requestLog: A2aRequestLog;
  private unsubscribe?: () => void;

  constructor(
    private readonly config: ConfigStore,
    // Typed to the operations it dispatches, so the bindings can run over a stand-in task service.
    @Inject(A2aTaskService) private readonly tasks: Pick<A2aTaskService, 'accept' | 'getTask' | 'cancelTask' | 'listTasks'>,
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

  /**
   * One call, as the binding read it (readA2aRequest): its refusal, or the domain result of the task service, the
   * streams, the push configs or the extended Agent Card. The binding renders it with the request's codec. Never
   * rejects: a failure is an outcome with the error to answer.
   */
  async call(caller: A2aCaller, request: A2aRequest, options: A2aCallOptions): Promise<A2aCallOutcome> {
    const startedAt = performance.now();
    const outcome = await this.dispatch(caller, request, options);
    this.requestLog.served(caller.peer, request, options.binding, outcome, startedAt);
    return outcome;
  }

  private async dispatch(caller: A2aCaller, request: A2aRequest, options: A2aCallOptions): Promise<A2aCallOutcome> {
    // The request's server span (while tracing is on) names the method and the authenticated peer.
    trace.getActiveSpan()?.setAttributes({ [CLAWGATE.a2aMethod]: request.called, [CLAWGATE.peer]: caller.peer });
    try {
      if (!request.ok) throw request.error;
      const { call, codec } = request;
      if (call.operation === 'sendStreamingMessage' || call.operation === 'subscribeToTask') {
        const stream = await this.openStream(call, caller.peer, options.lastEventId, request.version);
        return { ok: true, stream: { stream, render: (item) => codec.streamItem(item.body, item.closes) } };
      }
      return { ok: true, result: await this.run(call, caller, options, request.version) };
    } catch (err) {
      if (err instanceof AppError && err.code !== ErrorCode.Internal) return { ok: false, error: err };
      // Internals stay in the log; the peer learns only that it failed.
      this.logger.error(`A2A ${request.called} from peer ${caller.peer} failed: ${(err as Error)?.stack ?? String(err)}`);
      return { ok: false, error: new AppError(ErrorCode.Internal, A2A_MESSAGES.internal) };
    }
  }

  private openStream(call: A2aStreamCall, peer: string, lastEventId: string | undefined, wire: A2aWireVersion): Promise<TaskEventStream> {
    if (call.operation === 'sendStreamingMessage') return this.streams.sendStreamingMessage(peer, call.params, wire);
    return this.streams.subscribeToTask(peer, call.params, lastEventId);
  }

  /** Each operation's service, its answer as the domain result of that operation. */
  private async run(call: A2aUnaryCall, caller: A2aCaller, options: A2aCallOptions, wire: A2aWireVersion): Promise<A2aResult> {
    const { peer } = caller;
    switch (call.operation) {
      case 'sendMessage': {
        const task = await this.tasks.accept(peer, call.params, { wait: options.wait, wire });
        return { operation: call.operation, task, historyLength: call.params.historyLength };
      }
      case 'getTask':
        return { operation: call.operation, task: await this.tasks.getTask(peer, call.params), historyLength: call.params.historyLength };
      case 'cancelTask':
        return { operation: call.operation, task: await this.tasks.cancelTask(peer, call.params) };
      case 'listTasks':
        return { operation: call.operation, page: await this.tasks.listTasks(peer, call.params) };
      case 'getExtendedAgentCard':
        return { operation: call.operation, card: await this.cards.extendedCard(peer, caller.origin(), wire) };
      case 'createPushConfig':
        return { operation: call.operation, config: await this.pushConfigs.create(peer, call.params, wire) };
      case 'getPushConfig':
        return { operation: call.operation, config: await this.pushConfigs.get(peer, call.params) };
      case 'listPushConfigs':
        return { operation: call.operation, configs: await this.pushConfigs.list(peer, call.params) };
      case 'deletePushConfig':
        await this.pushConfigs.remove(peer, call.params);
        return { operation: call.operation };
      default: {
        const unknown: never = call;
        throw new Error(`no handler for A2A operation ${JSON.stringify(unknown)}`);
      }
    }
  }
}
