import { ModelProviderError } from './model-provider.port';

/** Statuses that refuse the request itself: another model would be sent the same request, so the run ends. */
const REQUEST_REFUSED = new Set([400, 413, 422]);

/** A model that failed before another answered (the run record's `failovers`). */
export interface FailedModel {
  model: string;
  error: string;
}

/**
 * Whether a failed model call goes on to the next fallback (docs/runtime.md#model-fallbacks): a provider that
 * failed (429, 5xx, 401/403/404, a timeout, a refused connection, a malformed answer) or cannot be called (no key,
 * an api kind clawgate does not speak, no such provider). Not an abort (the run's signal), not a refused request.
 */
export function failsOver(err: unknown, signal: AbortSignal): boolean {
  if (signal.aborted || !(err instanceof ModelProviderError)) return false;
  return err.httpStatus === undefined || !REQUEST_REFUSED.has(err.httpStatus);
}

/**
 * The models of a run, tried in order: the agent's primary, then its fallbacks. The run starts at the primary; once a
 * fallback has answered, the run's later rounds start there (a model that failed one round is not asked again within
 * the run), and the next run starts at the primary again.
 */
export class ModelChainCursor {
  private index = 0;
  readonly failed: FailedModel[] = [];

  constructor(private readonly chain: readonly string[]) {}

  /** The model to call now. */
  get current(): string {
    return this.chain[this.index];
  }

  /**
   * Records that the current model failed with `err`; true when there is a next one to call. The error's message is
   * already the provider's own, scrubbed of secrets.
   */
  advance(err: unknown): boolean {
    this.failed.push({ model: this.current, error: (err as Error)?.message ?? String(err) });
    if (this.index + 1 >= this.chain.length) return false;
    this.index++;
    return true;
  }

  /** The error a run ends with when every model failed: each model and why, the last one's error when there was one model. */
  exhausted(last: unknown): Error {
    if (this.failed.length <= 1) return last as Error;
    return new ModelProviderError(`every model failed: ${this.failed.map((f) => `${f.model}: ${f.error}`).join('; ')}`);
  }
}
