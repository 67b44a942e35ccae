import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { Tracing } from '../../common/telemetry/tracing';
import { normalizeAgentId } from '../../common/agent-id';
import { AppError } from '../../common/errors/app-error';
import { SessionAccessPolicy } from '../session-policy';
import { ConfigStore } from '../config';
import {
  AgentRunner,
  notARunIdMessage,
  parseRunId,
  ToolRegistry,
  toolResultFromError,
  type ToolContext,
  type ToolResult,
} from '../runtime';
import {
  agentIdFromSessionKey,
  isValidSessionKey,
  mainSessionKey,
  SESSION_STORE,
  subagentSessionKey,
  type SessionEntry,
  type SessionStore,
} from '../sessions';
import { BUILT_IN_TOOLS } from '../../common/built-in-tools';
import { RunReports } from './run-reports';
import { SpawnLimits } from './spawn-limits';
import { notASessionKey } from './session-key-argument';
import { SessionsSendService } from './sessions-send.service';
import {
  SESSIONS_SEND_SCHEMA,
  SessionsSendArgs,
  SESSION_STATUS_SCHEMA,
  SESSIONS_HISTORY_SCHEMA,
  SESSIONS_LIST_SCHEMA,
  SESSIONS_SPAWN_SCHEMA,
  SessionsHistoryArgs,
  SessionsListArgs,
  SessionsSpawnArgs,
  SessionStatusArgs,
} from './session-tool-schemas';

/** Sessions read per page by sessions_list, and at most in all before it answers with what it found. */
const LIST_PAGE_SIZE = 200;
const LIST_SCAN_LIMIT = 10_000;
/** Why a spawned run is aborted when the run that spawned it is. */
const SPAWNER_ABORTED = 'the run that spawned this session was aborted';

/**
 * The session tools an agent's model can call, each acting as the calling session and gated by
 * the one SessionAccessPolicy. The admin API calls the same handlers on behalf of a session.
 * See docs/sessions.md#session-tools.
 */
@Injectable()
export class SessionToolsService implements OnModuleInit {
  constructor(
    private readonly access: SessionAccessPolicy,
    private readonly config: ConfigStore,
    private readonly runner: AgentRunner,
    private readonly registry: ToolRegistry,
    private readonly sender: SessionsSendService,
    private readonly runReports: RunReports,
    private readonly spawnLimits: SpawnLimits,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Optional() private readonly tracing: Tracing = new Tracing(),
  ) {}

  onModuleInit(): void {
    this.registry.register<SessionsListArgs>({
      name: BUILT_IN_TOOLS.sessionsList,
      description: 'List sessions visible from this session (most recent first).',
      parameters: SESSIONS_LIST_SCHEMA,
      handler: (ctx, args) => this.list(ctx.sessionKey, args),
    });
    this.registry.register<SessionsHistoryArgs>({
      name: BUILT_IN_TOOLS.sessionsHistory,
      description: 'Read the recent messages of a visible session.',
      parameters: SESSIONS_HISTORY_SCHEMA,
      handler: (ctx, args) => this.history(ctx.sessionKey, args),
    });
    this.registry.register<SessionStatusArgs>({
      name: BUILT_IN_TOOLS.sessionStatus,
      description:
        'Show a session (default: this one) and whether a run is active or queued; with runId instead, what became of that run ' +
        'and of the sessions_send exchange it started (the reply, the ping-pong turns, the announce).',
      parameters: SESSION_STATUS_SCHEMA,
      handler: (ctx, args) => this.status(ctx.sessionKey, args),
    });
    this.registry.register<SessionsSendArgs>({
      name: BUILT_IN_TOOLS.sessionsSend,
      description:
        'Send a message to another session (by sessionKey, label, or agentId for its main session) and wait for the reply. ' +
        "The result's runId finds the reply and the rest of the exchange later: session_status with that runId.",
      parameters: SESSIONS_SEND_SCHEMA,
      handler: (ctx, args) => this.sender.send(ctx, args),
    });
    this.registry.register<SessionsSpawnArgs>({
      name: BUILT_IN_TOOLS.sessionsSpawn,
      description: 'Start a sub-session that works on a task in the background; returns its key and run id.',
      parameters: SESSIONS_SPAWN_SCHEMA,
      handler: (ctx, args) => this.spawn(ctx, args),
    });
  }

  async list(requesterKey: string, args: SessionsListArgs): Promise<ToolResult> {
    const limit = args.limit ?? 50;
    const filter = {
      agentId: args.agentId ? normalizeAgentId(args.agentId) : undefined,
      label: args.label,
      activeMinutes: args.activeMinutes,
    };
    // Page by page, newest first, until `limit` visible sessions are found: a requester that may see few of
    // many sessions costs a bounded scan (LIST_SCAN_LIMIT), not a read of the whole store.
    const sessions: SessionEntry[] = [];
    let cursor: string | undefined;
    for (let scanned = 0; sessions.length < limit && scanned < LIST_SCAN_LIMIT;) {
      const page = await this.sessions.page({ ...filter, limit: LIST_PAGE_SIZE, cursor });
      scanned += page.sessions.length;
      const visible = new Set(
        await this.access.filterVisible(
          requesterKey,
          page.sessions.map((s) => s.sessionKey),
        ),
      );
      sessions.push(...page.sessions.filter((s) => visible.has(s.sessionKey)));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const shown = sessions.slice(0, limit).map(describeSession);
    return { status: 'ok', count: shown.length, sessions: shown };
  }

  async history(requesterKey: string, args: SessionsHistoryArgs): Promise<ToolResult> {
    const denied = await this.deny(requesterKey, args.sessionKey);
    if (denied) return denied;
    if (!(await this.sessions.get(args.sessionKey))) return notFound(args.sessionKey);
    const { lines: shown, warnings } = await this.sessions.history(args.sessionKey, {
      limit: args.limit ?? 20,
      includeTools: args.includeTools ?? false,
    });
    return { status: 'ok', sessionKey: args.sessionKey, messages: shown, ...(warnings.length ? { warnings } : {}) };
  }

  async status(requesterKey: string, args: SessionStatusArgs): Promise<ToolResult> {
    if (args.runId !== undefined) {
      if (args.sessionKey !== undefined) return { status: 'error', error: 'give either sessionKey or runId, not both' };
      return this.runStatus(requesterKey, args.runId);
    }
    const target = args.sessionKey ?? requesterKey;
    const denied = await this.deny(requesterKey, target);
    if (denied) return denied;
    const entry = await this.sessions.get(target);
    if (!entry) return notFound(target);
    const lanes = this.runner.laneState(target);
    const state = lanes.running > 0 ? 'running' : lanes.queued > 0 ? 'queued' : 'idle';
    return { status: 'ok', session: describeSession(entry), run: { state, running: lanes.running, queued: lanes.queued } };
  }

  /** session_status with runId: the run and its exchange, if this session is party to it (else as if unknown). */
  private async runStatus(requesterKey: string, raw: string): Promise<ToolResult> {
    const runId = parseRunId(raw);
    if (!runId) return { status: 'error', error: notARunIdMessage(raw) };
    const report = await this.runReports.find(runId);
    if (!report || !(await this.runReports.visibleFrom(requesterKey, report))) {
      return { status: 'not_found', error: `no run ${runId} that this session is party to (unknown, forgotten, or another session's)` };
    }
    return { status: 'ok', ...report };
  }

  async spawn(
    ctx: Pick<ToolContext, 'sessionKey' | 'onAbort'> & Partial<Pick<ToolContext, 'runId' | 'origin'>>,
    args: SessionsSpawnArgs,
  ): Promise<ToolResult> {
    const requesterAgent = agentIdFromSessionKey(ctx.sessionKey);
    const agentId = args.agentId ? normalizeAgentId(args.agentId) : requesterAgent;
    const snapshot = this.config.current();
    if (agentId !== requesterAgent) {
      // Spawning into another agent is a cross-agent action: same three layers as messaging it. Checked before
      // the agent is looked up, so a requester that may not reach it cannot tell whether it exists.
      const denied = await this.deny(ctx.sessionKey, mainSessionKey(agentId, snapshot.config.session.mainKey));
      if (denied) return denied;
    }
    if (!snapshot.agentsById.has(agentId)) return { status: 'not_found', error: `no agent "${agentId}"` };
    // The limits of the requesting agent, read from the config served now (a reload applies to the next spawn).
    const admitted = await this.spawnLimits.admit(ctx.sessionKey, snapshot.agentsById.get(requesterAgent)?.subagents);
    if ('refused' in admitted) return admitted.refused;
    const { release } = admitted;
    const childSessionKey = subagentSessionKey(agentId);
    try {
      await this.sessions.getOrCreate(childSessionKey, { label: args.label, spawnedBy: ctx.sessionKey });
    } catch (err) {
      release();
      if (err instanceof AppError) return toolResultFromError(err);
      throw err;
    }
    const child = this.runner.startRun({
      lineage: { parentRunId: ctx.runId, spawnedBy: ctx.sessionKey },
      sessionKey: childSessionKey,
      message: args.task,
      // The child's run joins the spawning run's trace (its tool span), like every inter-session message.
      provenance: {
        kind: 'inter_session',
        sourceSessionKey: ctx.sessionKey,
        sourceTool: BUILT_IN_TOOLS.sessionsSpawn,
        ...this.tracing.fields(),
        // The child's work is the spawning run's: it spends from that work's origin too.
        ...(ctx.origin ? { workOrigin: ctx.origin } : {}),
      },
    });
    release();
    // The child works on after the spawning run completes; only an abort of that run reaches it.
    ctx.onAbort?.(() => {
      this.runner.abortRun(child.runId, SPAWNER_ABORTED);
      return child.done;
    });
    return { status: 'accepted', runId: child.runId, childSessionKey };
  }

  /** The access verdict as a tool result, or undefined when access is allowed. */
  private async deny(requesterKey: string, targetKey: string): Promise<ToolResult | undefined> {
    if (!isValidSessionKey(targetKey)) return notASessionKey(targetKey);
    const decision = await this.access.check(requesterKey, targetKey);
    return decision.allowed ? undefined : { status: 'forbidden', error: decision.message };
  }
}

function notFound(sessionKey: string): ToolResult {
  return { status: 'not_found', error: `no session ${sessionKey}` };
}

function describeSession(s: SessionEntry): Record<string, unknown> {
  return {
    sessionKey: s.sessionKey,
    agentId: s.agentId,
    ...(s.label ? { label: s.label } : {}),
    ...(s.spawnedBy ? { spawnedBy: s.spawnedBy } : {}),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
