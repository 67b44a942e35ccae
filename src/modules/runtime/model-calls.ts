import type { Logger } from '@nestjs/common';
import type { Span } from '@opentelemetry/api';
import type { Tracing } from '../../common/telemetry/tracing';
import type { GatewayOptions, RuntimeSnapshot } from '../config';
import type { GatewayMetrics } from '../metrics';
import type { BudgetGate, UsageCallContext, UsageRecorder } from '../usage';
import { failsOver, type ModelChainCursor } from './model-failover';
import type { ModelRequest, ModelResponse } from './model-provider.port';
import type { ProviderRegistry } from './provider-registry';
import type { RoundDeltas } from './reply-deltas';
import type { RunRegistry } from './run-registry';
import type { RunHooks } from './run-hooks';
import { modelCallSpanName, modelCallSpanOptions, recordModelUsage } from './run-spans';

/** What a model call needs of the runner that owns it. */
export interface ModelCallsDeps {
  providers: ProviderRegistry;
  tracing: Tracing;
  metrics: GatewayMetrics;
  hooks: RunHooks;
  /** The run records: the one of the calling run names the model that answered and the ones that failed. */
  runs: RunRegistry;
  env: GatewayOptions['env'];
  logger: Logger;
  /** Where each answered call's usage is recorded (absent in unit tests that build a runner without it). */
  usage?: UsageRecorder;
  /** The budgets checked before each call (docs/usage.md#budgets). */
  budgets?: BudgetGate;
}

/** The run a model call belongs to. */
export interface ModelCallRun extends UsageCallContext {
  runId: string;
  sessionKey: string;
}

/**
 * The model calls of a run's rounds: one call on the chain's current model; when that fails in a way a fallback can
 * help with, the next model gets the same request (docs/runtime.md#model-fallbacks). Each call is its own
 * `chat <model>` span, timed in the provider's metric series, and heard by the plugins' `before_model_call` hook.
 */
export class ModelCalls {
  constructor(private readonly deps: ModelCallsDeps) {}

  async call(
    run: ModelCallRun,
    snapshot: RuntimeSnapshot,
    models: ModelChainCursor,
    request: Omit<ModelRequest, 'model' | 'traceHeaders'>,
    deltas: RoundDeltas | undefined,
  ): Promise<ModelResponse> {
    const { providers, tracing, hooks, runs, env, logger, budgets } = this.deps;
    // Before the call, not before each fallback: a budget is about the call, whichever model answers it.
    const budgetCheck = budgets?.check(run, snapshot.config);
    if (budgetCheck) await budgetCheck;
    for (;;) {
      if (hooks.has('before_model_call')) {
        // Each model tried hears of it, a fallback too: a plugin counting or refusing calls sees every one.
        await hooks.emit('before_model_call', { agentId: request.agentId, sessionKey: run.sessionKey, model: models.current });
        if (request.signal.aborted) throw request.signal.reason;
      }
      try {
        const model = providers.resolve(snapshot, models.current, env);
        const response = await tracing.inSpan(modelCallSpanName(model), modelCallSpanOptions(model), async (span: Span) => {
          const answer = await this.timed(
            model.settings.name,
            performance.now(),
            model.provider.complete(model.settings, { ...request, model: model.model, traceHeaders: tracing.headers() }),
          );
          recordModelUsage(span, answer);
          if (answer.usage) this.recordUsage(run, models.current, answer.usage);
          return answer;
        });
        runs.update(run.runId, { model: models.current, ...(models.failed.length ? { failovers: [...models.failed] } : {}) });
        return response;
      } catch (err) {
        // Text already passed on to the caller cannot be taken back: another model would answer after part of this reply.
        if (!failsOver(err, request.signal) || deltas?.started) throw err;
        const failed = models.current;
        const next = models.advance(err);
        runs.update(run.runId, { failovers: [...models.failed] });
        if (!next) throw models.exhausted(err);
        logger.warn(`run ${run.runId}: model ${failed} failed, trying ${models.current}: ${(err as Error).message}`);
      }
    }
  }

  /** The call's tokens in the usage store and the token and cost series (docs/usage.md). */
  private recordUsage(run: ModelCallRun, modelRef: string, usage: NonNullable<ModelResponse['usage']>): void {
    const inputTokens = usage.inputTokens ?? 0;
    const outputTokens = usage.outputTokens ?? 0;
    if (!inputTokens && !outputTokens) return;
    const cost = this.deps.usage?.modelCall(run, modelRef, { inputTokens, outputTokens, cachedTokens: usage.cachedTokens ?? 0 });
    // The run's record counts as it goes, so a live tree shows what each run has used so far.
    const { runs } = this.deps;
    const sofar = runs.get(run.runId);
    if (!sofar) return;
    runs.update(run.runId, {
      usage: { inputTokens: (sofar.usage?.inputTokens ?? 0) + inputTokens, outputTokens: (sofar.usage?.outputTokens ?? 0) + outputTokens },
      ...(typeof cost === 'number' ? { cost: (sofar.cost ?? 0) + cost } : {}),
    });
  }

  /** Records the model call's latency and outcome (an answer, or a throw) in the provider's series. */
  private timed<T>(provider: string, started: number, call: Promise<T>): Promise<T> {
    const { metrics } = this.deps;
    // One reaction rather than an async function around an await: this sits on every model call.
    return call.then(
      (answer) => {
        metrics.modelCall(provider, true, (performance.now() - started) / 1000);
        return answer;
      },
      (err: unknown) => {
        metrics.modelCall(provider, false, (performance.now() - started) / 1000);
        throw err;
      },
    );
  }
}
