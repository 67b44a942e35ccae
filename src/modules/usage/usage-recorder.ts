import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { WorkOrigin } from '../../common/work-origin';
import { ConfigStore } from '../config';
import { GatewayMetrics } from '../metrics';
import { type CallTokens, priceOf } from './usage-pricing';
import { USAGE_STORE, type UsageOrigin, type UsageStore } from './usage-store.port';

/** The run a model call belongs to, and who started that run. */
export interface UsageCallContext {
  agentId: string;
  sessionKey: string;
  runId: string;
  /** The channel the run's message came in on, `agent` (another session's tool) or `internal`. */
  channel: string;
  /** The A2A peer, the OpenAI/MCP key name, the channel account, the sending session. */
  caller?: string;
  /**
   * Where the work started (docs/usage.md#budgets-follow-the-work): this run itself, or the run whose tools started it
   * (down every hop). Recorded with the call; the budgets of the origin count it.
   */
  origin?: WorkOrigin;
}

/**
 * Records each model call's usage (docs/usage.md): priced from the config served now, appended to the usage store
 * (batched: the call never waits for the row) and counted in the token and cost series.
 */
@Injectable()
export class UsageRecorder implements OnApplicationShutdown {
  constructor(
    private readonly config: ConfigStore,
    @Inject(USAGE_STORE) private readonly store: UsageStore,
    @Optional() private readonly metrics?: GatewayMetrics,
  ) {}

  /** One answered model call; a call whose provider reported no usage is not recorded. Returns its cost (null: no price known). */
  modelCall(call: UsageCallContext, modelRef: string, tokens: CallTokens): number | null {
    const cost = priceOf(this.config.current().config, modelRef, tokens);
    const slash = modelRef.indexOf('/');
    this.store.append({
      at: Date.now(),
      agentId: call.agentId,
      sessionKey: call.sessionKey,
      runId: call.runId,
      model: modelRef,
      provider: slash > 0 ? modelRef.slice(0, slash) : modelRef,
      channel: call.channel,
      caller: call.caller ?? null,
      inputTokens: tokens.inputTokens,
      outputTokens: tokens.outputTokens,
      cachedTokens: tokens.cachedTokens,
      cost,
      ...(call.origin ? { origin: usageOrigin(call.origin) } : {}),
    });
    this.metrics?.modelUsage(
      call.agentId,
      modelRef,
      { input: tokens.inputTokens, output: tokens.outputTokens, cached: tokens.cachedTokens },
      cost,
    );
    return cost;
  }

  /** The store closes after the runs: the runtime's shutdown (which waits for them) comes first. */
  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

function usageOrigin(origin: WorkOrigin): UsageOrigin {
  const { carried: _carried, ...columns } = origin;
  return columns;
}
