import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { jsonDepthExceeds } from '../../common/json-depth';
import { ConfigStore } from '../config';
import { A2A_MESSAGES, MAX_PARAMS_DEPTH, RATE_LIMIT_WINDOW_MS } from './a2a-limits';
import { type A2aOperation, resolveA2aMethod } from './a2a-methods';
import { A2aTaskService } from './a2a-task.service';
import { invalidParams } from './json-rpc';
import { RATE_LIMITER, RateLimiter } from './rate-limiter';

/** What one A2A call came to: its result, or the error to answer with (never anything internal). */
export type A2aCallOutcome = { ok: true; result: unknown } | { ok: false; error: AppError };

export interface A2aCallOptions {
  /** A call that is answered (not a JSON-RPC notification): SendMessage then blocks for the reply. */
  wait: boolean;
  /** The request asked for an A2A version this endpoint does not speak: the call gets that error, whatever it is. */
  versionError?: AppError;
  /**
   * The call's params, built only once the method is known to be offered: an unsupported operation answers as
   * such whatever its parameters look like, and a binding's translation errors (a bad query parameter) come after
   * the version and method checks, exactly where a JSON-RPC caller's params errors come.
   */
  params: () => unknown;
}

/**
 * The A2A operations as both bindings call them (JSON-RPC in A2aRpcService, HTTP+JSON in A2aRestEndpoint): the
 * per-peer rate limit, then for each call the version check, the method, the params depth limit and the task
 * service. A binding only translates its wire format to a method name and params and the outcome back, so the
 * two answer every request the same way. Limits and errors: docs/a2a.md#limits-and-errors.
 */
@Injectable()
export class A2aOperations implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('a2a');
  private unsubscribe?: () => void;

  constructor(
    private readonly config: ConfigStore,
    // Typed to the operations it dispatches, so the bindings can run over a stand-in task service.
    @Inject(A2aTaskService) private readonly tasks: Pick<A2aTaskService, 'sendMessage' | 'getTask' | 'cancelTask' | 'listTasks'>,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
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

  /** Takes one of the peer's slots of the current minute; false when it has none left. `rateLimitPerMinute: 0` is off. */
  admit(peer: string): boolean {
    const limit = this.config.current().config.channels.a2a.rateLimitPerMinute;
    return limit === 0 || this.limiter.tryTake(peer, limit, RATE_LIMIT_WINDOW_MS);
  }

  /** One call by its A2A method name (1.0 or 0.3). Never rejects: a failure is an outcome with the error to answer. */
  async call(peer: string, method: string, options: A2aCallOptions): Promise<A2aCallOutcome> {
    try {
      // Before the method: what a method means depends on the version it is asked in.
      if (options.versionError) throw options.versionError;
      const operation = resolveA2aMethod(method);
      const params = options.params();
      if (jsonDepthExceeds(params, MAX_PARAMS_DEPTH)) throw invalidParams(`params are nested more than ${MAX_PARAMS_DEPTH} levels deep`);
      return { ok: true, result: await this.run(operation, peer, params, options.wait) };
    } catch (err) {
      if (err instanceof AppError && err.code !== ErrorCode.Internal) return { ok: false, error: err };
      // Internals stay in the log; the peer learns only that it failed.
      this.logger.error(`A2A ${method} from peer ${peer} failed: ${(err as Error)?.stack ?? String(err)}`);
      return { ok: false, error: new AppError(ErrorCode.Internal, A2A_MESSAGES.internal) };
    }
  }

  private run(operation: A2aOperation, peer: string, params: unknown, wait: boolean): Promise<unknown> {
    switch (operation) {
      case 'sendMessage':
        return this.tasks.sendMessage(peer, params, { wait });
      case 'getTask':
        return this.tasks.getTask(peer, params);
      case 'cancelTask':
        return this.tasks.cancelTask(peer, params);
      case 'listTasks':
        return this.tasks.listTasks(peer, params);
      default: {
        const unknown: never = operation;
        throw new Error(`no handler for A2A operation ${String(unknown)}`);
      }
    }
  }
}
