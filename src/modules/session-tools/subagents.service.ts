import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { Tracing } from '../../common/telemetry/tracing';
import type { WorkOrigin } from '../../common/work-origin';
import { BUILT_IN_TOOLS } from '../../common/built-in-tools';
import {
  AgentRunner,
  isTerminalRunStatus,
  parseRunId,
  RunTrees,
  ToolRegistry,
  type RunRecord,
  type RunTreeNode,
  type ToolContext,
  type ToolResult,
} from '../runtime';
import { isValidSessionKey, SESSION_STORE, type InterSessionProvenance, type SessionStore } from '../sessions';
import { SESSIONS_YIELD_SCHEMA, SUBAGENTS_SCHEMA, type SessionsYieldArgs, type SubagentsArgs } from './session-tool-schemas';

/** How long a yielded session waits for its children at most before it is resumed with what is known then. */
export const YIELD_WAIT_MS = 6 * 60 * 60 * 1000;
/** Replies longer than this are cut in the resume message (the whole reply stays in the child's transcript). */
const RESUME_REPLY_CHARS = 8000;

/** How long a kill waits for the runs it aborted to stop before it answers. */
const KILL_WAIT_MS = 30_000;
/** Why the runs of a subtree the parent session stopped were aborted. */
export const KILLED_BY_PARENT = 'stopped by the session that spawned it (subagents kill)';

/** Who steers or kills: a session's run (the subagents tool) or the operator (the admin API). */
export interface TreeActor {
  /** The acting session; absent for the operator. */
  sessionKey?: string;
  /** The acting run, if a run is acting: the runs it starts belong to its tree. */
  runId?: string;
  /** Where the acting run's work started: the runs it starts spend from that work's budgets (docs/usage.md#budgets-follow-the-work). */
  origin?: WorkOrigin;
}

/** One spawned session of the caller, with its remembered runs (each with the runs below it). */
interface ChildSession {
  sessionKey: string;
  agentId: string;
  state: 'running' | 'queued' | 'idle';
  runs: RunTreeNode[];
}

/**
 * The tree of sessions a session spawned, seen and steered from above (docs/sessions.md#steering-the-tree): the
 * `subagents` tool (list, steer, kill — over the caller's own descendants only) and the operator's steer.
 */
@Injectable()
export class SubagentsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('subagents');
  /** Yielded sessions waiting for their children. */
  private readonly waiting = new Set<Promise<void>>();

  constructor(
    private readonly runner: AgentRunner,
    private readonly trees: RunTrees,
    private readonly registry: ToolRegistry,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Optional() private readonly tracing: Tracing = new Tracing(),
  ) {}

  onModuleInit(): void {
    this.registry.register<SubagentsArgs>({
      name: BUILT_IN_TOOLS.subagents,
      description:
        'The sessions this session spawned (sessions_spawn) and theirs: list them with their runs, steer one with a message ' +
        '(it becomes its next turn), or kill one and everything below it. Only this session’s own descendants.',
      parameters: SUBAGENTS_SCHEMA,
      handler: (ctx, args) => this.call(ctx, args),
    });
    this.registry.register<SessionsYieldArgs>({
      name: BUILT_IN_TOOLS.sessionsYield,
      description:
        'End this turn now and be resumed when the sessions this session spawned have finished: their results arrive as ' +
        'the next message of this session. Use it after sessions_spawn instead of waiting or polling.',
      parameters: SESSIONS_YIELD_SCHEMA,
      handler: (ctx, args) => Promise.resolve(this.yieldTurn(ctx, args)),
    });
  }

  /** Waiting yields are dropped: the runs they wait for are aborted by the shutdown, and no resume starts then. */
  async onModuleDestroy(): Promise<void> {
    // The runtime stops first, so the runs the yields wait for end now.
    await this.runner.shutdown();
    await Promise.allSettled([...this.waiting]);
  }

  /**
   * sessions_yield: ends the calling run's turn and, once every run of the sessions it spawned that is queued or
   * running now has ended, starts the session's next turn with their outcomes. Nothing is resumed when all of them
   * were aborted (a kill of the tree, a shutdown): what stopped them stops the tree.
   */
  yieldTurn(
    ctx: Pick<ToolContext, 'sessionKey'> & Partial<Pick<ToolContext, 'runId' | 'endTurn' | 'origin'>>,
    args: SessionsYieldArgs,
  ): ToolResult {
    if (!ctx.runId || !ctx.endTurn) return { status: 'error', error: 'sessions_yield ends a run’s turn; there is no run to end here' };
    const children = this.runner.runsSpawnedBy(ctx.sessionKey).filter((r) => !this.runner.isOver(r.runId));
    if (!children.length) {
      return { status: 'error', error: 'no session this session spawned is working: nothing to wait for (the results are already in)' };
    }
    const ids = children.map((r) => r.runId);
    ctx.endTurn(args.message ?? `Waiting for ${ids.length} spawned session(s) to finish.`);
    const waiting = this.resumeWhenDone(ctx.sessionKey, ctx.runId, ids, ctx.origin)
      .catch((err: Error) => this.logger.warn(`resuming ${ctx.sessionKey} after sessions_yield failed: ${err.message}`))
      .finally(() => this.waiting.delete(waiting));
    this.waiting.add(waiting);
    return { status: 'accepted', waitingFor: ids };
  }

  private async resumeWhenDone(sessionKey: string, yieldingRunId: string, runIds: string[], origin?: WorkOrigin): Promise<void> {
    const ended = await Promise.all(runIds.map((id) => this.runner.waitForRun(id, YIELD_WAIT_MS)));
    if (ended.every((r) => r.status === 'aborted')) return;
    const lines = ended.map((r) => {
      const outcome =
        r.status === 'completed'
          ? `completed: ${cut(r.reply ?? '')}`
          : isTerminalRunStatus(r.status)
            ? `${r.status}: ${r.error ?? ''}`
            : `still ${r.status} after ${YIELD_WAIT_MS / 3_600_000} h`;
      return `- ${r.sessionKey} (run ${r.runId}) ${outcome}`;
    });
    this.runner.startRun({
      sessionKey,
      message: `The sessions you spawned have finished (sessions_yield):\n${lines.join('\n')}`,
      provenance: {
        kind: 'inter_session',
        sourceSessionKey: sessionKey,
        sourceTool: BUILT_IN_TOOLS.sessionsYield,
        ...this.tracing.fields(),
        // The resumed turn goes on with the yielding run's work: it spends from that work's origin.
        ...(origin ? { workOrigin: origin } : {}),
      },
      meta: { sessionsYield: { runIds } },
      lineage: { parentRunId: yieldingRunId },
    });
  }

  async call(
    ctx: Pick<ToolContext, 'sessionKey'> & Partial<Pick<ToolContext, 'runId' | 'origin'>>,
    args: SubagentsArgs,
  ): Promise<ToolResult> {
    if (args.action === 'list') {
      if (args.target !== undefined || args.message !== undefined) return { status: 'error', error: 'list takes no target or message' };
      return this.list(ctx.sessionKey);
    }
    if (args.target === undefined) return { status: 'error', error: `${args.action} needs a target: a session key or run id` };
    const target = await this.descendant(ctx.sessionKey, args.target);
    if ('status' in target) return target;
    if (args.action === 'steer') {
      if (args.message === undefined) return { status: 'error', error: 'steer needs a message' };
      return this.steer(target.sessionKey, args.message, { sessionKey: ctx.sessionKey, runId: ctx.runId, origin: ctx.origin });
    }
    if (args.message !== undefined) return { status: 'error', error: 'kill takes no message' };
    return this.killSubtree(target, KILLED_BY_PARENT);
  }

  /** The caller's spawned sessions (those whose runs are remembered), oldest first, each with its runs' trees. */
  list(callerKey: string): ToolResult {
    const bySession = new Map<string, RunRecord[]>();
    for (const run of this.runner.runsSpawnedBy(callerKey)) bySession.set(run.sessionKey, [...(bySession.get(run.sessionKey) ?? []), run]);
    const children: ChildSession[] = [...bySession].map(([sessionKey, runs]) => {
      const ids = new Set(runs.map((r) => r.runId));
      // A run another run of the same session started is shown below that one, not twice.
      const roots = runs.filter((r) => !r.parentRunId || !ids.has(r.parentRunId));
      const lanes = this.runner.laneState(sessionKey);
      return {
        sessionKey,
        agentId: runs[0].agentId,
        state: lanes.running > 0 ? 'running' : lanes.queued > 0 ? 'queued' : 'idle',
        runs: roots.map((r) => this.trees.tree(r.runId)),
      };
    });
    return { status: 'ok', count: children.length, children };
  }

  /**
   * Delivers `message` to the session as its next turn: at once when the session is idle, else queued behind what its
   * lane is running and holding. The run belongs to the acting run's tree, or for the operator to the tree the
   * session's latest run belongs to, so a kill of that tree reaches it.
   */
  async steer(sessionKey: string, message: string, actor: TreeActor): Promise<ToolResult> {
    const entry = await this.sessions.get(sessionKey);
    if (!entry) return { status: 'not_found', error: `no session ${sessionKey}` };
    const lanes = this.runner.laneState(sessionKey);
    const latest = this.runner.runsOfSessions(new Set([sessionKey])).at(-1);
    const parentRunId = actor.runId ?? latest?.parentRunId;
    const provenance: InterSessionProvenance | undefined = actor.sessionKey
      ? {
          kind: 'inter_session',
          sourceSessionKey: actor.sessionKey,
          sourceTool: BUILT_IN_TOOLS.subagents,
          ...this.tracing.fields(),
          ...(actor.origin ? { workOrigin: actor.origin } : {}),
        }
      : undefined;
    const run = this.runner.startRun({
      sessionKey: entry.sessionKey,
      message,
      provenance,
      meta: { steer: { by: actor.sessionKey ?? 'operator' } },
      lineage: { parentRunId, spawnedBy: entry.spawnedBy },
    });
    return { status: 'accepted', runId: run.runId, sessionKey: entry.sessionKey, queuedBehind: lanes.running + lanes.queued };
  }

  /**
   * Aborts what is going on below the target and answers once it has stopped: for a run, that run and the runs below
   * it; for a session, its runs, the runs below them, and the runs of every session spawned from it (directly or
   * below), also those the operator started there.
   */
  private async killSubtree(target: { sessionKey: string; runId?: string }, reason: string): Promise<ToolResult> {
    const roots = target.runId ? [target.runId] : this.runner.runsOfSessions(new Set([target.sessionKey])).map((r) => r.runId);
    const ids = new Set<string>();
    for (const root of roots) {
      ids.add(root);
      for (const d of this.runner.descendantsOf(root)) ids.add(d.runId);
    }
    if (!target.runId) {
      for (const run of this.runner.liveRuns()) {
        if (ids.has(run.runId)) continue;
        if (await this.sessions.isSpawnedBy(run.sessionKey, target.sessionKey).catch(() => false)) ids.add(run.runId);
      }
    }
    const live = [...ids].filter((id) => !this.runner.isOver(id));
    const aborted = await this.runner.abortRuns(live, reason, KILL_WAIT_MS);
    return { status: 'ok', sessionKey: target.sessionKey, ...(target.runId ? { runId: target.runId } : {}), aborted };
  }

  /**
   * The target as a session this session spawned (directly or below), or the refusal: a session or run that is not
   * the caller's descendant is `forbidden` whether it exists or not, so nothing of another tree is revealed.
   */
  private async descendant(callerKey: string, raw: string): Promise<{ sessionKey: string; runId?: string } | ToolResult> {
    const runId = parseRunId(raw);
    let sessionKey: string;
    if (runId) {
      const run = this.runner.getRun(runId);
      if (!run) return notDescendant(raw);
      sessionKey = run.sessionKey;
    } else if (isValidSessionKey(raw)) {
      sessionKey = raw;
    } else {
      return { status: 'error', error: `"${raw}" is neither a session key (agent:<agentId>:<rest>) nor a run id` };
    }
    if (!(await this.sessions.isSpawnedBy(sessionKey, callerKey).catch(() => false))) return notDescendant(raw);
    return runId ? { sessionKey, runId } : { sessionKey };
  }
}

function notDescendant(raw: string): ToolResult {
  return {
    status: 'forbidden',
    error: `${raw} is not a session this session spawned (directly or below it); subagents acts only on this session's own descendants`,
  };
}

function cut(text: string): string {
  return text.length > RESUME_REPLY_CHARS ? `${text.slice(0, RESUME_REPLY_CHARS)}…` : text;
}
