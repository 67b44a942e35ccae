import { Injectable } from '@nestjs/common';
import { SessionAccessPolicy } from '../session-policy';
import { AgentRunner, isTerminalRunStatus, type RunRecord } from '../runtime';
import { agentIdFromSessionKey } from '../sessions';
import { ExchangeRecord, ExchangeStep, REPLY_EXCERPT_CHARS, STEP_REPLY_EXCERPT_CHARS, stepOf } from './exchange-record';
import { ExchangeRecorder } from './exchange-recorder';

/** A run as reported: its outcome, and the sessions_send exchange it is part of, if any. */
export interface RunReport {
  run: RunOutcome;
  exchange?: ExchangeRecord;
  /** Which step of `exchange` this run is. */
  exchangeStep?: 'round-one' | 'ping-pong' | 'announce';
}

/** The run's outcome: the runtime's record while it has it, else what the exchange store kept of it. */
export interface RunOutcome extends ExchangeStep {
  agentId: string;
  abortedBy?: RunRecord['abortedBy'];
  toolRounds?: number;
  usage?: RunRecord['usage'];
}

/**
 * Answers "what became of run X": `GET /admin/runs/:runId` for the operator and `session_status` with `runId`
 * for an agent, which sees only runs its session is party to. See docs/sessions.md#following-up-on-an-exchange.
 */
@Injectable()
export class RunReports {
  constructor(
    private readonly runner: AgentRunner,
    private readonly exchanges: ExchangeRecorder,
    private readonly access: SessionAccessPolicy,
  ) {}

  /** Undefined when neither the runtime (last 2000 finished runs) nor the exchange store knows the run. */
  async find(runId: string): Promise<RunReport | undefined> {
    const live = this.runner.getRun(runId);
    const stored = await this.exchanges.find(runId);
    const exchange = stored && this.current(stored);
    const located = exchange && locate(exchange, runId);
    const run = live ? outcomeOf(live) : located && { ...located.step, agentId: agentIdFromSessionKey(located.step.sessionKey) };
    if (!run) return undefined;
    return { run, ...(exchange && located ? { exchange, exchangeStep: located.kind } : {}) };
  }

  /**
   * Whether `callerKey` may be told about the run: it must be party to it — the run's session, or for an
   * exchange its requester or target — through a session of its own agent that it may see (the visibility
   * check session_status applies to a session). Other agents never see it, whatever the policy lets them read.
   */
  async visibleFrom(callerKey: string, report: RunReport): Promise<boolean> {
    const callerAgent = agentIdFromSessionKey(callerKey);
    const parties = report.exchange
      ? [report.exchange.requesterSessionKey, report.exchange.targetSessionKey, report.run.sessionKey]
      : [report.run.sessionKey];
    for (const party of new Set(parties)) {
      if (agentIdFromSessionKey(party) !== callerAgent) continue;
      if ((await this.access.check(callerKey, party)).allowed) return true;
    }
    return false;
  }

  /** The exchange with each step that had not ended as the runtime has it now (a step's status is written at its end). */
  private current(exchange: ExchangeRecord): ExchangeRecord {
    if (exchange.state !== 'running') return exchange;
    const now = <S extends ExchangeStep>(step: S, maxReply = STEP_REPLY_EXCERPT_CHARS): S => {
      const live = !isTerminalRunStatus(step.status) ? this.runner.getRun(step.runId) : undefined;
      return live ? { ...step, ...stepOf(live, maxReply) } : step;
    };
    const out: ExchangeRecord = { ...exchange, roundOne: now(exchange.roundOne, REPLY_EXCERPT_CHARS) };
    if (exchange.pingPong) out.pingPong = { ...exchange.pingPong, turns: exchange.pingPong.turns.map((t) => now(t)) };
    if (exchange.announce?.step) out.announce = { ...exchange.announce, step: now(exchange.announce.step) };
    return out;
  }
}

function locate(exchange: ExchangeRecord, runId: string): { kind: NonNullable<RunReport['exchangeStep']>; step: ExchangeStep } | undefined {
  if (exchange.roundOne.runId === runId) return { kind: 'round-one', step: exchange.roundOne };
  const turn = exchange.pingPong?.turns.find((t) => t.runId === runId);
  if (turn) return { kind: 'ping-pong', step: turn };
  const announce = exchange.announce?.step;
  return announce?.runId === runId ? { kind: 'announce', step: announce } : undefined;
}

function outcomeOf(run: RunRecord): RunOutcome {
  return {
    ...stepOf(run),
    agentId: run.agentId,
    ...(run.abortedBy ? { abortedBy: run.abortedBy } : {}),
    toolRounds: run.toolRounds,
    ...(run.usage ? { usage: run.usage } : {}),
  };
}
