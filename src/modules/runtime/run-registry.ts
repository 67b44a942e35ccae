import type { FailedModel } from './model-failover';
import { newRunId } from './run-id';

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'aborted';
const TERMINAL: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'aborted']);

/** True once a run can change no more. */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return TERMINAL.has(status);
}

export interface RunRecord {
  runId: string;
  sessionKey: string;
  agentId: string;
  status: RunStatus;
  /** The final assistant text (completed runs). */
  reply?: string;
  /** Why the run failed or was aborted (failed/aborted runs). */
  error?: string;
  queuedAt: string;
  startedAt?: string;
  endedAt?: string;
  toolRounds: number;
  /** Who asked for the abort: a cancel (operator, peer, a run that started this one) or the gateway shutting down. */
  abortedBy?: 'cancel' | 'shutdown';
  usage?: { inputTokens: number; outputTokens: number };
  /**
   * The model (`provider/model`) once the run has started: the agent's primary, and after a model call the model
   * that answered it (a fallback when the ones before it failed).
   */
  model?: string;
  /**
   * Why a failed run's model call was not made, when a rule of the gateway refused it rather than a model failing:
   * a budget used up (docs/usage.md#budgets), with the seconds until it resets (none for a run's own budget).
   */
  refusal?: { reason: 'BUDGET_EXHAUSTED'; budget: string; retryAfterSeconds?: number };
  /** The models that failed before one answered, in order, each with its error (docs/runtime.md#model-fallbacks). */
  failovers?: FailedModel[];
  /**
   * The run whose tool started this one (sessions_spawn, sessions_send, a steer of a spawned session): the runs
   * of a tree (`GET /admin/runs/{runId}/tree`) are linked by it.
   */
  parentRunId?: string;
  /** For a run of a spawned session: the session that spawned it (its active children are counted by this). */
  spawnedBy?: string;
  /** What the run's model calls cost so far, priced from the models' `cost` (absent while no price is known). */
  cost?: number;
}

/** Where a run sits in the tree of runs: set when it is created, never changed. */
export interface RunLineage {
  parentRunId?: string;
  spawnedBy?: string;
}

/** Finished runs kept for status queries; older ones are forgotten first. */
export const MAX_FINISHED_RUNS = 2000;

/**
 * In-memory record of runs (for session_status, waits and aborts). Transcripts are the durable record;
 * this only answers "what is happening now / what just happened".
 */
export class RunRegistry {
  private readonly runs = new Map<string, RunRecord>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly waiters = new Map<string, Array<(r: RunRecord) => void>>();
  /** Finished run ids, oldest first (a Set keeps insertion order, and drops its oldest in O(1)). */
  private readonly finished = new Set<string>();
  /** parentRunId → the runs it started, while they are remembered. */
  private readonly children = new Map<string, Set<string>>();

  create(
    sessionKey: string,
    agentId: string,
    runId: string = newRunId(),
    lineage: RunLineage = {},
  ): { record: RunRecord; signal: AbortSignal } {
    if (this.runs.has(runId)) throw new Error(`run ${runId} already exists`);
    const record: RunRecord = { runId, sessionKey, agentId, status: 'queued', queuedAt: new Date().toISOString(), toolRounds: 0 };
    if (lineage.parentRunId) record.parentRunId = lineage.parentRunId;
    if (lineage.spawnedBy) record.spawnedBy = lineage.spawnedBy;
    const controller = new AbortController();
    this.runs.set(runId, record);
    this.controllers.set(runId, controller);
    if (record.parentRunId) {
      const siblings = this.children.get(record.parentRunId) ?? new Set<string>();
      siblings.add(runId);
      this.children.set(record.parentRunId, siblings);
    }
    return { record, signal: controller.signal };
  }

  /** The runs `runId` started (remembered ones), oldest first. */
  childrenOf(runId: string): RunRecord[] {
    return [...(this.children.get(runId) ?? [])].flatMap((id) => {
      const r = this.runs.get(id);
      return r ? [{ ...r }] : [];
    });
  }

  /** Every run below `runId` (children, their children, …), parents before their children. */
  descendantsOf(runId: string): RunRecord[] {
    const out: RunRecord[] = [];
    const seen = new Set<string>([runId]);
    const queue = [runId];
    while (queue.length) {
      for (const child of this.childrenOf(queue.shift() as string)) {
        if (seen.has(child.runId)) continue;
        seen.add(child.runId);
        out.push(child);
        queue.push(child.runId);
      }
    }
    return out;
  }

  /** The remembered runs of these sessions (any state), oldest first. */
  runsOfSessions(sessionKeys: ReadonlySet<string>): RunRecord[] {
    return [...this.runs.values()].filter((r) => sessionKeys.has(r.sessionKey)).map((r) => ({ ...r }));
  }

  /** The runs queued or running now. */
  liveRuns(): RunRecord[] {
    return [...this.controllers.keys()].flatMap((id) => {
      const r = this.runs.get(id);
      return r && !TERMINAL.has(r.status) ? [{ ...r }] : [];
    });
  }

  /** The remembered runs of sessions `sessionKey` spawned (any state), oldest first. */
  runsSpawnedBy(sessionKey: string): RunRecord[] {
    return [...this.runs.values()].filter((r) => r.spawnedBy === sessionKey).map((r) => ({ ...r }));
  }

  /** The spawned sessions of `sessionKey` that have a run queued or running now. */
  activeChildSessions(sessionKey: string): Set<string> {
    const active = new Set<string>();
    for (const runId of this.controllers.keys()) {
      const r = this.runs.get(runId);
      if (r && r.spawnedBy === sessionKey && !TERMINAL.has(r.status)) active.add(r.sessionKey);
    }
    return active;
  }

  get(runId: string): RunRecord | undefined {
    const r = this.runs.get(runId);
    return r && { ...r };
  }

  update(runId: string, patch: Partial<RunRecord>): RunRecord {
    const record = this.runs.get(runId);
    if (!record) throw new Error(`unknown run ${runId}`);
    Object.assign(record, patch);
    if (TERMINAL.has(record.status)) this.settle(record);
    return { ...record };
  }

  /** Stops the run's model call and tool loop; it ends as `aborted`. False if unknown or finished. */
  abort(runId: string, reason = 'aborted by operator', by: 'cancel' | 'shutdown' = 'cancel'): boolean {
    const record = this.runs.get(runId);
    const controller = this.controllers.get(runId);
    if (!record || !controller || TERMINAL.has(record.status)) return false;
    record.abortedBy ??= by;
    controller.abort(new Error(reason));
    return true;
  }

  /** Aborts every run that has not finished (shutdown). */
  abortAll(reason: string): void {
    for (const runId of [...this.controllers.keys()]) this.abort(runId, reason, 'shutdown');
  }

  /** Resolves with the record once it is terminal, or with its current state after `timeoutMs`. */
  wait(runId: string, timeoutMs: number): Promise<RunRecord> {
    const record = this.runs.get(runId);
    if (!record) return Promise.reject(new Error(`unknown run ${runId}`));
    if (TERMINAL.has(record.status)) return Promise.resolve({ ...record });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.set(
          runId,
          (this.waiters.get(runId) ?? []).filter((w) => w !== done),
        );
        resolve({ ...(this.runs.get(runId) as RunRecord) });
      }, timeoutMs);
      const done = (r: RunRecord) => {
        clearTimeout(timer);
        resolve({ ...r });
      };
      this.waiters.set(runId, [...(this.waiters.get(runId) ?? []), done]);
    });
  }

  private settle(record: RunRecord): void {
    this.controllers.delete(record.runId);
    for (const w of this.waiters.get(record.runId) ?? []) w(record);
    this.waiters.delete(record.runId);
    this.finished.add(record.runId);
    if (this.finished.size > MAX_FINISHED_RUNS) {
      const oldest = this.finished.values().next().value as string;
      this.finished.delete(oldest);
      const parent = this.runs.get(oldest)?.parentRunId;
      if (parent) this.children.get(parent)?.delete(oldest);
      if (parent && this.children.get(parent)?.size === 0) this.children.delete(parent);
      this.runs.delete(oldest);
    }
  }
}
