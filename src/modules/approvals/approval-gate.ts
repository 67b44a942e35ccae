import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { AppError, conflict, notFound } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { timeOrderedId } from '../../common/ids';
import { ConfigStore } from '../config';
import { GatewayMetrics } from '../metrics';
import type { Approval, ApprovalDecision, ApprovalState, DecisionFields } from './approval';
import { APPROVAL_STORE, type ApprovalStore } from './approval-store.port';

/** What a run tells the gate about the call that waits: who asks and what, and how long it may wait. */
export type ApprovalRequest = Pick<
  Approval,
  'agentId' | 'sessionKey' | 'runId' | 'tool' | 'toolCallId' | 'args' | 'channel' | 'caller' | 'taskId'
> & {
  timeoutMs: number;
};

/**
 * Goes on with the work of an approval whose run is gone (the process that ran it stopped while it waited): starts
 * a run that answers the call, or returns undefined when the approval is not this resumer's (another one is asked).
 */
export type ApprovalResumer = (approval: Approval) => Promise<string | false | undefined>;

/** How often a run waiting for a decision looks at the shared store (a decision may be made on another replica). */
const SHARED_STORE_POLL_MS = 1000;

/**
 * Tool approvals (docs/approvals.md): a run whose tool call needs an operator's decision asks here and waits; the
 * admin API, the CLI and the console decide. No decision within the agent's `tools.approvalTimeoutMs` is a denial, and
 * a run aborted while it waits withdraws its request. A pending request outlives the process: after a restart, its
 * decision (or its timeout) resumes the session's work through a resumer (the A2A channel's, for a task; the
 * runtime's otherwise).
 */
@Injectable()
export class ApprovalGate implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('approvals');
  /** Runs of this process waiting, by approval id. */
  private readonly waiting = new Map<string, (approval: Approval) => void>();
  private readonly listeners: Array<(approval: Approval) => void> = [];
  private readonly resumers: ApprovalResumer[] = [];
  private readonly fallbacks: ApprovalResumer[] = [];
  /** The timeouts of requests whose run is gone. */
  private readonly orphanTimers = new Map<string, NodeJS.Timeout>();
  private closed = false;
  private suspended = false;

  constructor(
    @Inject(APPROVAL_STORE) private readonly store: ApprovalStore,
    private readonly config: ConfigStore,
    @Optional() private readonly metrics: GatewayMetrics = new GatewayMetrics(),
  ) {}

  /** Told of every request and decision (the A2A channel turns them into its task's states). Never throws at the gate. */
  onChange(listener: (approval: Approval) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Resumers are asked in the order they were added, a `fallback` one (the runtime's, for any session) after the others;
   * the first that takes the approval (a run id, or false: its work is over, nothing to resume) ends the asking.
   */
  addResumer(resumer: ApprovalResumer, { fallback = false }: { fallback?: boolean } = {}): void {
    if (fallback) this.fallbacks.push(resumer);
    else this.resumers.push(resumer);
  }

  /**
   * Records the request and waits for its decision: approved, denied, expired (no decision in time) or withdrawn
   * (`signal` aborted). Resolves with the approval as decided; rejects only when the request cannot be recorded.
   */
  async request(input: ApprovalRequest, signal: AbortSignal): Promise<Approval> {
    const now = Date.now();
    const { timeoutMs, ...fields } = input;
    const approval: Approval = {
      id: timeOrderedId(),
      state: 'pending',
      ...fields,
      requestedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + timeoutMs).toISOString(),
    };
    await this.store.insert(approval);
    this.metrics.toolApproval('requested');
    this.logger.log(`approval ${approval.id}: agent ${approval.agentId} waits to call ${approval.tool} (run ${approval.runId})`);
    const decided = new Promise<Approval>((resolve) => this.waiting.set(approval.id, resolve));
    this.tell(approval);
    // Whatever cannot be written (the store failing) still ends the wait, as the decision that was meant.
    const end = (state: ApprovalDecision, by: string) =>
      void this.decideAs(approval.id, state, by).catch(() => this.release({ ...approval, state, decidedBy: by }));
    const timer = setTimeout(() => end('expired', 'timeout'), timeoutMs);
    const onAbort = () => {
      // A stop of the gateway leaves the request pending: after the next start its decision resumes the work.
      if (this.suspended) this.release({ ...approval, state: 'withdrawn', decidedBy: 'shutdown' });
      else end('withdrawn', 'run');
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    const poll = this.sharedStore() ? setInterval(() => void this.lookForDecision(approval.id), SHARED_STORE_POLL_MS) : undefined;
    try {
      return await decided;
    } finally {
      clearTimeout(timer);
      clearInterval(poll);
      signal.removeEventListener('abort', onAbort);
      this.waiting.delete(approval.id);
    }
  }

  /**
   * The first step of a stop (the runtime calls it before it aborts the runs): the runs waiting now are let go without
   * a decision, and their requests stay pending for the next start.
   */
  suspendForShutdown(): void {
    this.suspended = true;
  }

  /**
   * An operator's decision. 404 for an unknown id; 409 naming the state when it was already decided (the first
   * decision stands). The waiting run goes on at once; one whose process is gone is resumed.
   */
  async decide(id: string, state: 'approved' | 'denied', decidedBy: string, note?: string): Promise<Approval> {
    const decided = await this.decideAs(id, state, decidedBy, note);
    if (decided) return decided;
    const current = await this.store.get(id);
    if (!current) throw notFound(`no approval with id ${id}`);
    throw conflict(
      `approval ${id} is already ${current.state}${current.decidedBy ? ` (by ${current.decidedBy} at ${current.decidedAt})` : ''}; the first decision stands`,
    );
  }

  /** Takes a request back whose work was called off (its task canceled); false when it was no longer pending. */
  async withdraw(id: string, by: string): Promise<boolean> {
    return (await this.decideAs(id, 'withdrawn', by)) !== undefined;
  }

  get(id: string): Promise<Approval | undefined> {
    return this.store.get(id);
  }

  list(filter: { state?: ApprovalState; limit: number }): Promise<Approval[]> {
    return this.store.list(filter);
  }

  /** After the start: requests left pending by a process that stopped get their timeout here, and resume when decided. */
  async onApplicationBootstrap(): Promise<void> {
    // With a shared store another replica may still be waiting for its own; only a file of this process's is sure to be orphaned.
    if (this.sharedStore()) return;
    const pending = await this.store.list({ state: 'pending', limit: 10_000 });
    for (const approval of pending) this.expireOrphanAt(approval);
    if (pending.length) this.logger.warn(`${pending.length} tool call(s) still wait for approval from before the restart`);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    this.suspended = true;
    for (const timer of this.orphanTimers.values()) clearTimeout(timer);
    // Runs still waiting are aborted by the runtime's shutdown; their requests stay pending for the next start.
    await this.store.close();
  }

  /** Writes a decision if the request is still pending, then tells the run (here) or resumes the work (its run is gone). */
  private async decideAs(id: string, state: ApprovalDecision, decidedBy: string, note?: string): Promise<Approval | undefined> {
    if (this.closed) throw new AppError(ErrorCode.Unavailable, 'the gateway is shutting down');
    const fields: DecisionFields = { state, decidedAt: new Date().toISOString(), decidedBy, ...(note ? { note } : {}) };
    const decided = await this.store.decide(id, fields);
    if (!decided) return undefined;
    this.metrics.toolApproval(state);
    this.logger.log(`approval ${id}: ${decided.tool} for agent ${decided.agentId} ${state} by ${decidedBy}`);
    this.settle(decided);
    return decided;
  }

  private settle(decided: Approval): void {
    this.tell(decided);
    if (this.release(decided)) return;
    clearTimeout(this.orphanTimers.get(decided.id));
    this.orphanTimers.delete(decided.id);
    // Not waited for here: a restart took the run that asked. Withdrawn needs no resuming (nothing asked for it after).
    // With a shared store the run may wait on another replica, which reads the decision from there itself.
    if (decided.state !== 'withdrawn' && !this.sharedStore()) void this.resume(decided);
  }

  private async resume(approval: Approval): Promise<void> {
    try {
      for (const resumer of [...this.resumers, ...this.fallbacks]) {
        const runId = await resumer(approval);
        if (runId === undefined) continue;
        if (runId === false) return this.logger.log(`approval ${approval.id}: its work is over; nothing resumed`);
        await this.store.setResumedBy(approval.id, runId);
        this.logger.log(`approval ${approval.id}: run ${runId} goes on in ${approval.sessionKey}`);
        return;
      }
      this.logger.warn(`approval ${approval.id}: nothing could go on with ${approval.sessionKey}`);
    } catch (err) {
      this.logger.error(`approval ${approval.id}: resuming ${approval.sessionKey} failed: ${(err as Error).message}`);
    }
  }

  /** Ends this process's wait for the approval, if it waits: true when it did. */
  private release(decided: Approval): boolean {
    const waiter = this.waiting.get(decided.id);
    if (!waiter) return false;
    this.waiting.delete(decided.id);
    waiter(decided);
    return true;
  }

  private expireOrphanAt(approval: Approval): void {
    const ms = Math.max(0, Date.parse(approval.expiresAt) - Date.now());
    const timer = setTimeout(() => {
      this.orphanTimers.delete(approval.id);
      void this.decideAs(approval.id, 'expired', 'timeout').catch(() => undefined);
    }, ms);
    timer.unref();
    this.orphanTimers.set(approval.id, timer);
  }

  /** A decision made on another replica, read from the shared store. */
  private async lookForDecision(id: string): Promise<void> {
    if (!this.waiting.has(id)) return;
    const current = await this.store.get(id).catch(() => undefined);
    if (current && current.state !== 'pending') this.settle(current);
  }

  private sharedStore(): boolean {
    return this.config.current().config.gateway.state.backend === 'postgres';
  }

  private tell(approval: Approval): void {
    for (const listener of this.listeners) {
      try {
        listener(approval);
      } catch (err) {
        this.logger.error(`approval ${approval.id}: a listener failed: ${(err as Error).message}`);
      }
    }
  }
}
