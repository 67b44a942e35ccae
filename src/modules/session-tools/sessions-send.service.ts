import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { context } from '@opentelemetry/api';
import { Tracing } from '../../common/telemetry/tracing';
import { normalizeAgentId } from '../../common/agent-id';
import { SessionAccessPolicy } from '../session-policy';
import { ConfigStore, type RuntimeSnapshot } from '../config';
import { GatewayMetrics } from '../metrics';
import { AgentRunner, isTerminalRunStatus, type ToolContext, type ToolResult } from '../runtime';
import {
  agentIdFromSessionKey,
  mainSessionKey,
  parseSessionKey,
  SESSION_STORE,
  type InterSessionProvenance,
  type SessionStore,
} from '../sessions';
import { BUILT_IN_TOOLS } from '../../common/built-in-tools';
import type { ExchangeRecord } from './exchange-record';
import { ExchangeRecorder } from './exchange-recorder';
import { beginStep, endStep, stepStarted } from './exchange-spans';
import { SessionsSendFlow } from './sessions-send-flow';
import { CHAIN_EXCEEDED_MESSAGE, REQUESTER_ABORTED, roundOnePrompt } from './sessions-send-prompts';
import type { SessionsSendArgs } from './session-tool-schemas';
import { notASessionKey } from './session-key-argument';

const DEFAULT_TIMEOUT_SECONDS = 30;
type CallerStatus = NonNullable<ExchangeRecord['callerStatus']>;

/**
 * sessions_send: resolve the target, apply the one access check and the chain-hop limit, run round one
 * in the target session (nested lane, deliver=false, inter-session provenance), wait or not, then hand
 * the rest of the exchange (ping-pong, announce) to the SessionsSendFlow in the background.
 * Step by step: docs/sessions.md#sessions_send-step-by-step.
 */
@Injectable()
export class SessionsSendService implements OnModuleDestroy {
  private readonly logger = new Logger('sessions_send');
  /** Exchanges still going on in the background (ping-pong, announce). */
  private readonly flows = new Set<Promise<void>>();

  constructor(
    private readonly config: ConfigStore,
    private readonly access: SessionAccessPolicy,
    private readonly runner: AgentRunner,
    private readonly flow: SessionsSendFlow,
    private readonly exchanges: ExchangeRecorder,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Optional() private readonly tracing: Tracing = new Tracing(),
    @Optional() private readonly metrics: GatewayMetrics = new GatewayMetrics(),
  ) {}

  /** `signal` and `onAbort` come with a run's call; the admin API calls without them (nothing to abort). */
  async send(
    ctx: Pick<ToolContext, 'sessionKey' | 'provenance' | 'onAbort'> & Partial<Pick<ToolContext, 'signal' | 'runId' | 'origin'>>,
    args: SessionsSendArgs,
  ): Promise<ToolResult> {
    const result = await this.exchange(ctx, args);
    // The hop of the message this call sends (a refused one included): 1 for a run that answers a person.
    this.metrics.sessionsSend(result.status, (ctx.provenance?.hop ?? 0) + 1);
    return result;
  }

  private async exchange(
    ctx: Pick<ToolContext, 'sessionKey' | 'provenance' | 'onAbort'> & Partial<Pick<ToolContext, 'signal' | 'runId' | 'origin'>>,
    args: SessionsSendArgs,
  ): Promise<ToolResult> {
    const snapshot = this.config.current();
    const requesterKey = ctx.sessionKey;
    const target = await this.resolveTarget(requesterKey, args, snapshot);
    if ('status' in target) return target;
    const targetKey = target.key;

    const hop = ctx.provenance?.hop ?? 0;
    if (hop >= snapshot.config.session.agentToAgent.maxChainHops) {
      return { status: 'forbidden', error: CHAIN_EXCEEDED_MESSAGE };
    }
    const decision = await this.access.check(requesterKey, targetKey, snapshot);
    if (!decision.allowed) return { status: 'forbidden', error: decision.message };

    if (!snapshot.agentsById.has(agentIdFromSessionKey(targetKey))) {
      return { status: 'not_found', error: `no agent "${agentIdFromSessionKey(targetKey)}"` };
    }
    const requester = await this.sessions.get(requesterKey);
    const chainId = ctx.provenance?.chainId ?? randomUUID();
    // Every step of the exchange belongs to the trace of this call (the sending run's tool span), also the ones
    // that start after it has returned.
    const traceContext = this.tracing.enabled ? context.active() : undefined;
    const step = beginStep(
      this.tracing,
      'round_one',
      { sessionKey: targetKey, peerSessionKey: requesterKey, chainId, hop: hop + 1 },
      traceContext,
    );
    const provenance: InterSessionProvenance = {
      kind: 'inter_session',
      sourceSessionKey: requesterKey,
      ...(requester?.deliveryContext?.channel ? { sourceChannel: requester.deliveryContext.channel } : {}),
      sourceTool: BUILT_IN_TOOLS.sessionsSend,
      chainId,
      hop: hop + 1,
      ...step.trace,
      // The exchange is part of the sending run's work: every step of it spends from that work's origin too.
      ...(ctx.origin ? { workOrigin: ctx.origin } : {}),
    };
    const round = this.runner.startRun({
      sessionKey: targetKey,
      message: args.message,
      provenance,
      extraSystemPrompt: roundOnePrompt(requesterKey, targetKey),
      lane: 'nested',
      meta: { sessionsSend: { step: 'round-one', chainId, requester: requesterKey } },
      // Round one belongs to the tree of the sending run (GET /admin/runs/{runId}/tree, its kill).
      lineage: { parentRunId: ctx.runId },
    });
    stepStarted(step, round.runId);
    if (this.tracing.enabled) void round.done.then((record) => endStep(step, record));
    const progress = this.exchanges.begin({
      roundOne: round,
      chainId,
      requesterSessionKey: requesterKey,
      targetSessionKey: targetKey,
      request: args.message,
    });
    const timeoutSeconds = args.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    // Whatever the caller waits for, the exchange goes on once round one settles — unless the requesting run is
    // aborted: then round one and the steps after it are aborted too, and that run ends once they have stopped.
    const rest = round.done
      .then((record) =>
        this.flow.continueAfterRoundOne({
          requesterKey,
          targetKey,
          request: args.message,
          roundOne: record,
          provenance,
          timeoutSeconds,
          signal: ctx.signal,
          progress,
          traceContext,
        }),
      )
      .catch((err: Error) => this.logger.warn(`agent-to-agent flow ${chainId} stopped: ${err.message}`))
      .finally(() => {
        progress.flowEnded();
        this.flows.delete(rest);
      });
    this.flows.add(rest);
    ctx.onAbort?.(() => {
      this.runner.abortRun(round.runId, REQUESTER_ABORTED);
      return rest;
    });

    const result = await this.answer(round.runId, targetKey, timeoutSeconds);
    progress.answered(result.status);
    return result;
  }

  /** Step 4: what the caller is told. Every answer names round one's run: the exchange can be followed up by it. */
  private async answer(runId: string, sessionKey: string, timeoutSeconds: number): Promise<ToolResult & { status: CallerStatus }> {
    if (timeoutSeconds === 0) return { status: 'accepted', runId, sessionKey };
    const record = await this.runner.waitForRun(runId, timeoutSeconds * 1000);
    if (record.status === 'completed') return { status: 'ok', runId, sessionKey, reply: record.reply ?? '' };
    if (!isTerminalRunStatus(record.status)) {
      return { status: 'timeout', runId, sessionKey, error: `no reply within ${timeoutSeconds}s; the run goes on` };
    }
    return { status: 'error', runId, sessionKey, error: record.error ?? `run ${record.status}` };
  }

  /** Stops the runtime first (so waiting steps end at once), then lets background exchanges finish. */
  async onModuleDestroy(): Promise<void> {
    await this.runner.shutdown();
    await Promise.allSettled([...this.flows]);
  }

  /** Step 1: sessionKey | label (+agentId) | agentId → `agent:<id>:<mainKey>` (created if missing). */
  private async resolveTarget(
    requesterKey: string,
    args: SessionsSendArgs,
    snapshot: RuntimeSnapshot,
  ): Promise<{ key: string } | ToolResult> {
    const given = [args.sessionKey !== undefined, args.label !== undefined].filter(Boolean).length;
    if (given > 1) return { status: 'error', error: 'give either sessionKey or label, not both' };
    if (args.sessionKey !== undefined) {
      const parsed = parseSessionKey(args.sessionKey);
      if (!parsed) return notASessionKey(args.sessionKey);
      if (parsed.threadId !== undefined) {
        return { status: 'error', error: 'thread sessions cannot be messaged with sessions_send; use the parent session' };
      }
      return { key: parsed.key };
    }
    const requesterAgent = agentIdFromSessionKey(requesterKey);
    const agentId = args.agentId ? normalizeAgentId(args.agentId) : undefined;
    if (args.label !== undefined) {
      const lookupAgent = agentId ?? requesterAgent;
      // Before the lookup: a requester that may not reach the agent gets this answer whether the label exists or not.
      const lookup = this.access.checkLabelLookup(requesterKey, lookupAgent, snapshot);
      if (!lookup.allowed) return { status: 'forbidden', error: lookup.message };
      const key = await this.sessions.resolveLabel(lookupAgent, args.label);
      return key ? { key } : { status: 'not_found', error: `no session labelled "${args.label}" in agent ${lookupAgent}` };
    }
    if (agentId) return { key: mainSessionKey(agentId, snapshot.config.session.mainKey) };
    return { status: 'error', error: 'one of sessionKey, label or agentId is required' };
  }
}
