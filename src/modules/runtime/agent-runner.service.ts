import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { context } from '@opentelemetry/api';
import { Tracing } from '../../common/telemetry/tracing';
import type { WorkOrigin } from '../../common/work-origin';
import { AgentsService } from '../agents';
import { ConfigStore, GATEWAY_OPTIONS, type GatewayOptions } from '../config';
import { canonicalSessionKey, SESSION_STORE, type SessionStore } from '../sessions';
import { GatewayMetrics } from '../metrics';
import { settleWithin } from '../../common/settle-within';
import { toolPolicyForSession } from './session-tool-policy';
import { AbortCascade } from './abort-cascade';
import { ModelChainCursor } from './model-failover';
import { ModelCalls } from './model-calls';
import type { ToolCall } from './model-provider.port';
import { ProviderRegistry } from './provider-registry';
import { RoundDeltas } from './reply-deltas';
import { isTerminalRunStatus, RunRecord, RunRegistry } from './run-registry';
import { ClusterService } from '../cluster';
import { LaneState, SessionLanes } from './session-lanes';
import { PromptFileCache } from './prompt-file-cache';
import { RunLog } from './run-log';
import { endRunSpan, RUN_SPAN, runSpanOptions } from './run-spans';
import { buildSystemPrompt, cachedSystemPrompt } from './system-prompt';
import { ToolRegistry } from './tool-registry';
import { RunHooks } from './run-hooks';
import { BudgetGate, UsageRecorder } from '../usage';
import { ApprovalGate, type Approval } from '../approvals';
import { ToolCallStep } from './tool-call-step';
import { failure, now, ran, usageOrigin, type Ran } from './run-outcome';
import { turnConversation } from './turn-conversation';

/** At most this many model → tools → model rounds per run (docs/runtime.md#what-a-run-does). */
export const MAX_TOOL_ROUNDS = 8;
const NOTHING_TO_RESUME = 'the session has no tool call waiting for an answer: nothing to resume';

import type { RunHandle, StartRunInput } from './start-run-input';
export type { RunHandle, StartRunInput } from './start-run-input';

/**
 * Runs agent turns: one run = one turn in one session (prompt assembly, model call, tool loop, transcript),
 * serialized per session on its lane, abortable, observable through the RunRegistry.
 */
@Injectable()
export class AgentRunner implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('runtime');
  private readonly runLog: RunLog;
  private readonly lanes: SessionLanes;
  private readonly runs = new RunRegistry();
  /** Each round's model call, over the agent's fallback chain. */
  private readonly modelCalls: ModelCalls;
  /** Each tool call: hooks, approval, the tool, its transcript line. */
  private readonly toolCalls: ToolCallStep;
  /** Runs not yet settled, so shutdown can wait for their transcript writes. */
  private readonly active = new Set<Promise<RunRecord>>();
  private closing?: Promise<void>;
  private draining?: Promise<void>;

  constructor(
    private readonly config: ConfigStore,
    private readonly agents: AgentsService,
    providers: ProviderRegistry,
    private readonly tools: ToolRegistry,
    /** Prompt files are re-read only when their directory reports a change. */
    private readonly promptFiles: PromptFileCache,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(GATEWAY_OPTIONS) options: GatewayOptions,
    private readonly tracing: Tracing,
    @Optional() private readonly metrics: GatewayMetrics = new GatewayMetrics(),
    @Optional() cluster?: ClusterService,
    /** The plugins' hooks (the plugins module attaches them); without plugins each point of a run costs one check. */
    @Optional() private readonly hooks: RunHooks = new RunHooks(),
    /** Records each model call's usage (docs/usage.md). */
    @Optional() usage?: UsageRecorder,
    @Optional() budgets?: BudgetGate,
    /** Tool calls that wait for an operator (docs/approvals.md). */
    @Optional() private readonly approvals?: ApprovalGate,
  ) {
    this.runLog = new RunLog(metrics);
    const runs = this.runs;
    this.modelCalls = new ModelCalls({ providers, tracing, metrics, hooks, runs, env: options.env, logger: this.logger, usage, budgets });
    this.toolCalls = new ToolCallStep({ tools, hooks, tracing, metrics, sessions, approvals });
    this.lanes = new SessionLanes(() => cluster?.laneLeases());
  }

  onModuleInit(): void {
    // Any session's turn left waiting for approval by a restart goes on here, unless its channel takes it (an A2A task).
    this.approvals?.addResumer(async (approval) => this.resumeAfterApproval(approval).runId, { fallback: true });
  }

  /** A run's record as it is now; undefined once it has been forgotten (or never existed). */
  getRun(runId: string): RunRecord | undefined {
    return this.runs.get(runId);
  }

  /** The run's record once it is terminal, or as it is after `timeoutMs` (check isTerminalRunStatus). */
  waitForRun(runId: string, timeoutMs: number): Promise<RunRecord> {
    return this.runs.wait(runId, timeoutMs);
  }

  /** Stops a queued or running run; false when it is unknown or already over. */
  abortRun(runId: string, reason?: string): boolean {
    return this.runs.abort(runId, reason);
  }

  /**
   * A run that goes on with the turn an approval's run left when it was gone (a restart): it answers the decided call
   * (the tool is called only when approved) and the model continues. `extra` adds what the run's channel needs.
   */
  resumeAfterApproval(approval: Approval, extra: Partial<StartRunInput> = {}): RunHandle {
    return this.startRun({
      sessionKey: approval.sessionKey,
      message: '',
      origin: { channel: approval.channel, ...(approval.caller ? { peer: approval.caller } : {}) },
      ...extra,
      resume: { approval },
    });
  }

  /** The runs `runId` started, their runs, and so on (remembered ones), parents before their children. */
  descendantsOf(runId: string): RunRecord[] {
    return this.runs.descendantsOf(runId);
  }

  /** The runs `runId` started directly (remembered ones). */
  childrenOf(runId: string): RunRecord[] {
    return this.runs.childrenOf(runId);
  }

  /** The remembered runs of these sessions, oldest first. */
  runsOfSessions(sessionKeys: ReadonlySet<string>): RunRecord[] {
    return this.runs.runsOfSessions(sessionKeys);
  }

  /** The runs queued or running now. */
  liveRuns(): RunRecord[] {
    return this.runs.liveRuns();
  }

  /** The remembered runs of the sessions `sessionKey` spawned, oldest first. */
  runsSpawnedBy(sessionKey: string): RunRecord[] {
    return this.runs.runsSpawnedBy(sessionKey);
  }

  /** The sessions `sessionKey` spawned that have a run queued or running (maxChildrenPerAgent counts them). */
  activeChildSessions(sessionKey: string): Set<string> {
    return this.runs.activeChildSessions(sessionKey);
  }

  /**
   * Aborts every run of `runIds` that is not over and waits (at most `timeoutMs`) until each has ended. Returns the
   * ids it aborted.
   */
  async abortRuns(runIds: readonly string[], reason: string, timeoutMs: number): Promise<string[]> {
    const aborted = runIds.filter((id) => this.runs.abort(id, reason));
    await Promise.all(aborted.map((id) => this.runs.wait(id, timeoutMs).catch(() => undefined)));
    return aborted;
  }

  /** True when the run is unknown or over. */
  isOver(runId: string): boolean {
    const r = this.runs.get(runId);
    return !r || isTerminalRunStatus(r.status);
  }

  /** How many runs of a session are running and queued (session_status). */
  laneState(sessionKey: string): LaneState {
    return this.lanes.state(sessionKey);
  }

  /** Queues a run and returns at once; `done` tells when it is over. */
  startRun(raw: StartRunInput): RunHandle {
    // Parsed once here; everything after works with the canonical key.
    const { key, agentId } = canonicalSessionKey(raw.sessionKey);
    const input = key === raw.sessionKey ? raw : { ...raw, sessionKey: key };
    const { record, signal } = this.runs.create(input.sessionKey, agentId, undefined, input.lineage);
    if (input.origin) this.runLog.received(record, input.origin);
    if (this.closing || this.draining) {
      const refused = this.runs.update(record.runId, {
        status: 'failed',
        error: 'the gateway is shutting down',
        abortedBy: 'shutdown',
        endedAt: now(),
      });
      return { runId: record.runId, done: Promise.resolve(refused) };
    }
    // The run's span is a child of the trace its message came with: the provenance's trace context for an
    // agent-to-agent step (which runs later, on another lane), else the request or run that started it.
    const lane = input.lane ?? 'main';
    const parent = this.tracing.enabled ? (this.tracing.contextOf(input.provenance) ?? context.active()) : undefined;
    const span = this.tracing.startSpan(RUN_SPAN, runSpanOptions(record, lane, input.provenance), parent);
    // The lane queues the turn with a promise reaction registered here, and a reaction runs in the async context it
    // was registered in: the lines the run writes carry the id of the request that asked for it, even when it starts
    // later, behind another request's run on the same lane. (AsyncResource.bind would do the same at a cost per run.)
    const turn = () => this.tracing.withSpan(span, () => this.execute(record.runId, agentId, input, signal), parent);
    const done = this.lanes
      .run(
        input.sessionKey,
        lane,
        (fence) => {
          // A lease taken over by another replica (ours expired): this run must not go on beside that one.
          fence?.lost.addEventListener('abort', () => this.runs.abort(record.runId, (fence.lost.reason as Error).message), { once: true });
          return turn();
        },
        signal,
        input.share,
      )
      .then((ran) => ran.settled)
      .catch((err: Error) => this.runs.update(record.runId, failure(signal, err)));
    void done.then((settled) => this.runLog.ended(settled, input.origin));
    if (this.hooks.has('after_run')) void done.then((settled) => this.afterRunHook(settled));
    if (this.tracing.enabled) void done.then((settled) => endRunSpan(span, settled));
    this.active.add(done);
    void done.finally(() => this.active.delete(done));
    return { runId: record.runId, done };
  }

  /**
   * The first step of a stop: refuses new runs at once and lets the ones in flight go on for up to `gateway.drainMs`
   * (0: not at all), so a replica taken out of a rolling update finishes its work instead of failing it. Resolves
   * when they have all ended or the time is up; shutdown then aborts whatever is left.
   */
  drain(): Promise<void> {
    this.draining ??= (async () => {
      const drainMs = this.config.current().config.gateway.drainMs;
      if (!drainMs || !this.active.size) return;
      this.logger.log(`draining: ${this.active.size} run(s) in flight may finish within ${drainMs} ms`);
      await settleWithin(this.active, drainMs);
    })();
    return this.draining;
  }

  /** Refuses new runs, aborts the running ones (after the drain) and waits until they have written their last line. */
  shutdown(): Promise<void> {
    this.closing ??= (async () => {
      await this.drain();
      // Runs waiting for an operator are let go without a decision: their requests stay for the next start.
      this.approvals?.suspendForShutdown();
      this.runs.abortAll('the gateway is shutting down');
      await Promise.allSettled([...this.active]);
    })();
    return this.closing;
  }

  onModuleDestroy(): Promise<void> {
    return this.shutdown();
  }

  /**
   * One turn, on the session's lane. The lane is free again when this resolves; `settled` is the run's end, which
   * can come later: the answer's line is queued and the session's next run starts at once, its question sharing
   * that line's commit, while this run is over only once the answer is on disk.
   */
  private async execute(runId: string, agentId: string, input: StartRunInput, signal: AbortSignal): Promise<Ran> {
    const started = Date.now();
    const snapshot = this.config.current();
    const agent = snapshot.agentsById.get(agentId);
    this.runs.update(runId, { status: 'running', startedAt: new Date().toISOString(), model: agent?.model });
    if (!agent) return ran(this.runs.update(runId, { status: 'failed', error: `agent "${agentId}" is not configured`, endedAt: now() }));
    if (this.hooks.has('message_received') && !input.resume) {
      // Awaited (under the hook's budget): a plugin sees the message before anything of the run happens.
      const channel = input.origin?.channel ?? (input.provenance ? 'agent' : 'internal');
      await this.hooks.emit('message_received', { agentId, sessionKey: input.sessionKey, channel, text: input.message });
    }

    // Awaited only the first time (or after a reload moved the directories): a run awaits nothing it need not.
    if (!this.agents.workspaceReady(agent)) await this.agents.ensureWorkspace(agent);
    // Independent reads, side by side (buildSystemPrompt never rejects: a missing file is an empty one); the prompt
    // usually comes straight from the cache.
    const cached = cachedSystemPrompt(agent, this.promptFiles, input.extraSystemPrompt);
    const [conversation, system] = await Promise.all([
      turnConversation(this.sessions, input, runId),
      cached ?? buildSystemPrompt(agent, input.extraSystemPrompt, this.promptFiles),
    ]);
    if (!conversation) return ran(this.runs.update(runId, { status: 'failed', error: NOTHING_TO_RESUME, endedAt: now() }));

    // Work the run's tools start elsewhere; an abort reaches it and the run ends only once it has stopped.
    const cascade = new AbortCascade(signal, (err) => this.logger.warn(`run ${runId}: stopping work it started failed: ${err.message}`));
    try {
      const models = new ModelChainCursor([agent.model, ...agent.fallbacks]);
      const { messages } = conversation;
      const usage = { inputTokens: 0, outputTokens: 0 };
      const whom = usageOrigin(input);
      // The work's origin: the one the provenance carries down from the run that started this one, else this run.
      const origin: WorkOrigin = input.provenance?.workOrigin ?? {
        runId,
        agentId,
        sessionKey: input.sessionKey,
        ...whom,
        ...(input.carriedBudget ? { carried: input.carriedBudget } : {}),
      };
      const call = { runId, sessionKey: input.sessionKey, agentId, ...whom, origin };
      // Sources of tools that start on demand (an MCP server started lazily) get ready for this agent first.
      await this.tools.prepare(agent, signal);
      // The agent is fixed for the run, and so are its tools (a plugin loaded or unloaded meanwhile counts from the next run).
      // The session decides too: a sandboxed or spawned one may have fewer tools than its agent (session-tool-policy.ts).
      const policy = { tools: toolPolicyForSession(agent, input.sessionKey, snapshot.config.session.mainKey) };
      const tools = this.tools.toolsFor(policy, input.perRunTools);
      const answer = async (calls: readonly ToolCall[], turn: { endedWith?: string }) => {
        for (const call of calls) {
          // Checked before every tool, not only every round: an aborted run starts nothing new.
          if (signal.aborted) throw signal.reason;
          const result = await this.toolCalls.call(call, { agent, policy, input, runId, origin, signal, cascade, turn });
          messages.push({ role: 'tool', toolCallId: call.id, name: call.name, text: result });
        }
      };
      // A resumed turn first answers the calls its stopped run left (the decided one among them).
      const resumedTurn: { endedWith?: string } = {};
      if (conversation.unanswered) await answer(conversation.unanswered, resumedTurn);
      for (let round = conversation.unanswered ? 1 : 0; ; round++) {
        if (signal.aborted) throw signal.reason;
        const deltas = input.onReplyDelta
          ? new RoundDeltas(input.onReplyDelta, round, (err) => this.logger.warn(`run ${runId}: reply delta: ${err.message}`))
          : undefined;
        const request = { agentId, system, messages, tools, signal, onTextDelta: deltas?.push };
        const response = await this.modelCalls.call(call, snapshot, models, request, deltas);
        deltas?.finish(response.text);
        usage.inputTokens += response.usage?.inputTokens ?? 0;
        usage.outputTokens += response.usage?.outputTokens ?? 0;
        if (!response.toolCalls.length) {
          const answered = this.sessions.append(input.sessionKey, {
            role: 'assistant',
            text: response.text,
            runId,
            meta: { ...input.meta, model: models.current, durationMs: Date.now() - started, usage },
          });
          return {
            settled: answered.then(
              () => this.runs.update(runId, { status: 'completed', reply: response.text, endedAt: now(), toolRounds: round, usage }),
              (err: Error) => this.fail(runId, input, signal, err, cascade),
            ),
          };
        }
        if (round >= MAX_TOOL_ROUNDS) throw new Error(`tool round limit (${MAX_TOOL_ROUNDS}) reached without a final answer`);
        messages.push({ role: 'assistant', text: response.text, toolCalls: response.toolCalls });
        await this.sessions.append(input.sessionKey, {
          role: 'assistant',
          text: response.text,
          toolCalls: response.toolCalls,
          runId,
          meta: input.meta,
        });
        const turn: { endedWith?: string } = {};
        await answer(response.toolCalls, turn);
        this.runs.update(runId, { toolRounds: round + 1 });
        if (turn.endedWith !== undefined) {
          // A tool ended the turn (sessions_yield): its text is the reply, the model is not asked again.
          const reply = turn.endedWith;
          const answered = this.sessions.append(input.sessionKey, {
            role: 'assistant',
            text: reply,
            runId,
            meta: { ...input.meta, model: models.current, durationMs: Date.now() - started, usage, endedBy: 'tool' },
          });
          return {
            settled: answered.then(
              () => this.runs.update(runId, { status: 'completed', reply, endedAt: now(), toolRounds: round + 1, usage }),
              (err: Error) => this.fail(runId, input, signal, err, cascade),
            ),
          };
        }
      }
    } catch (err) {
      // Holds the lane until the work the run started has stopped and the failure is written.
      return ran(await this.fail(runId, input, signal, err as Error, cascade));
    }
  }

  /** Ends a run that failed or was aborted: once what it started has stopped, one `system` line says why. */
  private async fail(runId: string, input: StartRunInput, signal: AbortSignal, err: Error, cascade: AbortCascade): Promise<RunRecord> {
    if (signal.aborted) await cascade.settled();
    const outcome = failure(signal, err);
    await this.sessions
      .append(input.sessionKey, { role: 'system', text: `run ${outcome.status}: ${outcome.error}`, runId, meta: input.meta })
      .catch(() => undefined);
    this.logger.warn(`run ${runId} in ${input.sessionKey} ${outcome.status}: ${outcome.error}`);
    return this.runs.update(runId, outcome);
  }

  /** Tells the plugins a run ended (not awaited by anyone: the run is over whatever they do). */
  private afterRunHook(run: RunRecord): void {
    const status = run.status === 'completed' ? 'completed' : run.status === 'aborted' ? 'canceled' : 'failed';
    void this.hooks.emit('after_run', { agentId: run.agentId, sessionKey: run.sessionKey, runId: run.runId, status, reply: run.reply });
  }
}
