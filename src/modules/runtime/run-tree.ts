import { Injectable } from '@nestjs/common';
import { badRequest, notFound } from '../../common/errors/app-error';
import { AgentRunner } from './agent-runner.service';
import { notARunIdMessage, parseRunId } from './run-id';
import { isTerminalRunStatus, type RunRecord, type RunStatus } from './run-registry';
import { RUN_CANCEL_WAIT_MS } from './run-cancel.service';

export const RUN_TREE_KILLED_BY_OPERATOR = 'Run tree killed by the gateway operator';

/** One run of a tree, as the operator and the subagents tool see it, with the runs it started below it. */
export interface RunTreeNode {
  runId: string;
  status: RunStatus;
  agentId: string;
  sessionKey: string;
  /** The model (`provider/model`) once the run has started. */
  model?: string;
  parentRunId?: string;
  /** For a run of a spawned session: the session that spawned it. */
  spawnedBy?: string;
  /** Tokens of the model calls so far. */
  usage?: { inputTokens: number; outputTokens: number };
  /** What those calls cost so far, when the models have prices (docs/usage.md). */
  cost?: number;
  queuedAt: string;
  startedAt?: string;
  endedAt?: string;
  /** From the start (or the queueing, for a run still queued) to the end, or to now for a run not over. */
  elapsedMs: number;
  error?: string;
  children: RunTreeNode[];
}

/** What a kill did: the runs it aborted, and the tree as it is once they have stopped. */
export interface RunTreeKill {
  aborted: string[];
  tree: RunTreeNode;
}

/** Runs are trees: each run's tools may start runs elsewhere (sessions_spawn, sessions_send, a steer). */
@Injectable()
export class RunTrees {
  constructor(private readonly runner: AgentRunner) {}

  /** The run and every remembered run below it, live. 400 for a text that is no run id, 404 for an unknown run. */
  tree(raw: string): RunTreeNode {
    return this.build(this.known(raw), Date.now(), new Set());
  }

  /**
   * Aborts the run and every run below it that is not over, and answers once they have all stopped (each at most
   * 60 s). 400 when nothing in the tree was still going on.
   */
  async kill(raw: string, reason = RUN_TREE_KILLED_BY_OPERATOR): Promise<RunTreeKill> {
    const root = this.known(raw);
    const ids = [root, ...this.runner.descendantsOf(root.runId)].filter((r) => !isTerminalRunStatus(r.status)).map((r) => r.runId);
    const aborted = await this.runner.abortRuns(ids, reason, RUN_CANCEL_WAIT_MS);
    if (!aborted.length) throw badRequest(`run ${root.runId} and the runs it started are already over (${root.status})`);
    return { aborted, tree: this.tree(root.runId) };
  }

  private known(raw: string): RunRecord {
    const runId = parseRunId(raw);
    if (!runId) throw badRequest(notARunIdMessage(raw));
    const run = this.runner.getRun(runId);
    if (!run) throw notFound(`no run with id ${JSON.stringify(runId)} (the runtime keeps the last 2000 finished runs)`);
    return run;
  }

  private build(run: RunRecord, now: number, seen: Set<string>): RunTreeNode {
    seen.add(run.runId);
    const from = Date.parse(run.startedAt ?? run.queuedAt);
    const to = run.endedAt ? Date.parse(run.endedAt) : now;
    return {
      runId: run.runId,
      status: run.status,
      agentId: run.agentId,
      sessionKey: run.sessionKey,
      ...(run.model ? { model: run.model } : {}),
      ...(run.parentRunId ? { parentRunId: run.parentRunId } : {}),
      ...(run.spawnedBy ? { spawnedBy: run.spawnedBy } : {}),
      ...(run.usage ? { usage: { ...run.usage } } : {}),
      ...(run.cost !== undefined ? { cost: run.cost } : {}),
      queuedAt: run.queuedAt,
      ...(run.startedAt ? { startedAt: run.startedAt } : {}),
      ...(run.endedAt ? { endedAt: run.endedAt } : {}),
      elapsedMs: Math.max(0, to - from),
      ...(run.error ? { error: run.error } : {}),
      children: this.runner
        .childrenOf(run.runId)
        .filter((c) => !seen.has(c.runId))
        .map((c) => this.build(c, now, seen)),
    };
  }
}
