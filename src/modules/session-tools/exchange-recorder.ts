import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { RunHandle } from '../runtime';
import {
  AnnounceStatus,
  AnnounceTarget,
  ExchangeRecord,
  ExchangeStep,
  excerpt,
  PingPongEnd,
  REQUEST_EXCERPT_CHARS,
  runIdsOf,
  STEP_REPLY_EXCERPT_CHARS,
  stepOf,
} from './exchange-record';
import { type AgentPairCount, EXCHANGE_STORE, type ExchangeStore } from './exchange-store.port';

/** How an announce ended (the flow's view; `pending` is the recorder's until then). */
export interface AnnounceOutcome {
  status: Exclude<AnnounceStatus, 'pending'>;
  detail?: string;
  target?: AnnounceTarget;
}

/** What the sessions_send flow reports as the exchange goes on; each call is recorded and stored. */
export interface ExchangeProgress {
  answered(status: NonNullable<ExchangeRecord['callerStatus']>): void;
  pingPongStarted(maxTurns: number): void;
  turnStarted(turn: number, role: 'requester' | 'target', sessionKey: string, run: RunHandle): void;
  pingPongEnded(reason: PingPongEnd): void;
  announceStarted(sessionKey: string, run: RunHandle): void;
  announced(outcome: AnnounceOutcome): void;
  /** The flow is over; the exchange is finished once every run it started has ended too. */
  flowEnded(): void;
}

export interface ExchangeStart {
  roundOne: RunHandle;
  chainId: string;
  requesterSessionKey: string;
  targetSessionKey: string;
  request: string;
}

/**
 * How often changed exchanges are written, all in one commit: an exchange's changes within this time share one write,
 * and the exchanges that changed share one transaction (one commit per 250 ms however many exchanges run, instead of
 * one per exchange). Most exchanges end sooner and are written once, finished; a crash loses at most this much.
 */
export const EXCHANGE_WRITE_MS = 250;

/**
 * Keeps the record of every sessions_send exchange: in memory while it runs (answered from there, so a read
 * right after the send sees it before any commit), written to the exchange store at most every
 * EXCHANGE_WRITE_MS after it changes (running or ended, one commit for all that changed), and read from the store once finished — also
 * after a restart, and from any replica when the store is shared (PostgreSQL). See docs/sessions.md#following-up-on-an-exchange.
 */
@Injectable()
export class ExchangeRecorder implements OnApplicationShutdown {
  private readonly logger = new Logger('sessions_send');
  /** Exchanges not finished yet, under the id of each of their runs. */
  private readonly live = new Map<string, LiveExchange>();
  /** Exchanges changed since the last write, and the timer of the next one. */
  private readonly due = new Set<LiveExchange>();
  private writeTimer?: NodeJS.Timeout;

  constructor(@Inject(EXCHANGE_STORE) private readonly store: ExchangeStore) {}

  /** Starts the record of an exchange whose round one has just been queued. */
  begin(start: ExchangeStart): ExchangeProgress {
    const at = new Date().toISOString();
    const exchange = new LiveExchange(
      {
        runId: start.roundOne.runId,
        chainId: start.chainId,
        requesterSessionKey: start.requesterSessionKey,
        targetSessionKey: start.targetSessionKey,
        request: excerpt(start.request, REQUEST_EXCERPT_CHARS),
        state: 'running',
        startedAt: at,
        updatedAt: at,
        roundOne: { runId: start.roundOne.runId, sessionKey: start.targetSessionKey, status: 'queued' },
      },
      this,
    );
    exchange.track(start.roundOne, (step) => (exchange.record.roundOne = step));
    return exchange;
  }

  /** The exchange run `runId` belongs to (any of its runs), as it is now. */
  async find(runId: string): Promise<ExchangeRecord | undefined> {
    const live = this.live.get(runId);
    return live ? structuredClone(live.record) : this.store.find(runId);
  }

  /**
   * sessions_send exchanges started at or after `since` (epoch ms), per requester and target agent. The changes
   * waiting for the next write are written first, so an exchange that has begun is counted at once.
   */
  async pairCounts(since: number): Promise<AgentPairCount[]> {
    this.writeDue();
    return this.store.pairCounts(since);
  }

  /** The last lifecycle hook: the exchanges' last steps (written while modules stop) are stored first. */
  async onApplicationShutdown(): Promise<void> {
    this.writeDue();
    await this.store.close();
  }

  /**
   * @internal LiveExchange: the record changed. It is written with the others that changed, within EXCHANGE_WRITE_MS;
   * the write stores the state at its commit. Until an ended state is committed, the record is answered from memory.
   */
  changed(exchange: LiveExchange): void {
    const { record } = exchange;
    if (record.state === 'running') for (const runId of runIdsOf(record)) this.live.set(runId, exchange);
    record.updatedAt = new Date().toISOString();
    this.due.add(exchange);
    this.writeTimer ??= setTimeout(() => this.writeDue(), EXCHANGE_WRITE_MS).unref();
  }

  /** Every changed exchange, queued in one turn: the store's group commit makes them one transaction. */
  private writeDue(): void {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    const due = [...this.due];
    this.due.clear();
    for (const exchange of due) this.write(exchange);
  }

  private write(exchange: LiveExchange): void {
    const { record } = exchange;
    if (exchange.saving) return;
    let stored: ExchangeRecord['state'] = 'running';
    exchange.saving = this.store
      .save(() => {
        exchange.saving = undefined;
        stored = record.state;
        return record;
      })
      .then(
        () => {
          if (stored !== 'running') for (const runId of runIdsOf(record)) if (this.live.get(runId) === exchange) this.live.delete(runId);
        },
        (err: Error) => this.logger.warn(`exchange ${record.runId} could not be stored: ${err.message}`),
      );
  }
}

/** One exchange while it runs: the flow's progress calls, turned into changes of its record. */
class LiveExchange implements ExchangeProgress {
  /** The write that will store the latest state, while one is queued. */
  saving?: Promise<void>;
  /** Runs of the exchange whose end is not recorded yet. */
  private unsettled = 0;
  private flowOver = false;

  constructor(
    readonly record: ExchangeRecord,
    private readonly owner: ExchangeRecorder,
  ) {
    owner.changed(this);
  }

  /** Records the run's end whenever it comes — also after the flow stopped waiting for it (a timeout). */
  track(run: RunHandle, apply: (step: ExchangeStep) => void, maxReply?: number): void {
    this.unsettled++;
    void run.done.then((record) => {
      apply(stepOf(record, maxReply));
      this.unsettled--;
      this.settleOrSave();
    });
  }

  answered(status: NonNullable<ExchangeRecord['callerStatus']>): void {
    this.record.callerStatus = status;
    this.owner.changed(this);
  }

  pingPongStarted(maxTurns: number): void {
    this.record.pingPong = { maxTurns, turns: [] };
    this.owner.changed(this);
  }

  turnStarted(turn: number, role: 'requester' | 'target', sessionKey: string, run: RunHandle): void {
    const turns = this.record.pingPong?.turns;
    if (!turns) return;
    turns.push({ turn, role, runId: run.runId, sessionKey, status: 'queued' });
    this.track(
      run,
      (step) => {
        const at = turns.findIndex((t) => t.runId === step.runId);
        turns[at] = { turn, role, ...step };
      },
      STEP_REPLY_EXCERPT_CHARS,
    );
    this.owner.changed(this);
  }

  pingPongEnded(reason: PingPongEnd): void {
    if (this.record.pingPong) this.record.pingPong.endedBecause = reason;
    this.owner.changed(this);
  }

  announceStarted(sessionKey: string, run: RunHandle): void {
    const announce = { status: 'pending' as const, step: { runId: run.runId, sessionKey, status: 'queued' as const } };
    this.record.announce = announce;
    this.track(run, (step) => (this.record.announce = { ...(this.record.announce ?? announce), step }), STEP_REPLY_EXCERPT_CHARS);
    this.owner.changed(this);
  }

  announced(outcome: AnnounceOutcome): void {
    this.record.announce = { ...this.record.announce, ...outcome, at: new Date().toISOString() };
    this.owner.changed(this);
  }

  flowEnded(): void {
    this.flowOver = true;
    this.settleOrSave();
  }

  private settleOrSave(): void {
    if (this.record.state === 'running' && this.flowOver && this.unsettled === 0) {
      this.record.state = 'finished';
      this.record.endedAt = new Date().toISOString();
    }
    this.owner.changed(this);
  }
}
