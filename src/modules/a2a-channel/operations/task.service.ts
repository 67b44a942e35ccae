import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { ConfigStore } from '../../config';
import { RoutingService } from '../../routing';
import { AgentRunner, LaneShare, type RunHandle, type RunRecord, type ToolContext, type ToolResult } from '../../runtime';
import { A2aAttachments } from '../attachments/attachments';
import { A2A_MESSAGES, TASK_SWEEP_INTERVAL_MS } from '../protocol/limits-and-messages';
import { routeA2aConversation } from '../tasks/session-route';
import { A2A_CLOCK, Clock } from '../model/clock';
import { isTerminalState } from '../../../common/a2a-protocol';
import type { AcceptOptions } from '../tasks/accept-options';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { isSlashCommand } from '../protocol/message-text';
import type { GetTaskInput, ListTasksInput, SendMessageInput, TaskIdInput } from '../protocol/method-params';
import { TaskInputAnswers } from '../tasks/task-input-answers';
import type { A2aTask } from '../model/task';
import { listTasksPage, type TaskListPage } from '../tasks/task-list-page';
import { SweepOutcome, TASK_STORE, TaskStore } from '../store/task-store.port';
import { settledOutcome } from '../tasks/task-outcome';
import { newTask, taskOrigin, type NewTaskFields, type TaskOrigin } from '../model/new-task';
import { TaskWaiters } from '../tasks/task-waiters';
import { DeferredTaskRows } from '../tasks/deferred-task-rows';
import { StreamedReply } from '../streaming/streamed-reply';
import { a2aRunInput, carriedBudgetOf } from '../tasks/task-run-input';
import { readPushConfig } from '../push/push-config-params';
import { PUSH_STORE, type PushStore } from '../store/push-store.port';
import { TaskEventBus } from '../streaming/task-event-bus';
import { settleWithin } from '../../../common/settle-within';
import { insertWithPush } from '../tasks/task-inserts';
import { cancelUnsupported, RemoteTaskCancels } from '../replicas/remote-task-cancels';
import { RemoteTaskInputs } from '../replicas/remote-task-inputs';
import { ApprovalGate } from '../../approvals';
import { TaskApprovals } from './task-approvals';

/** A blocking task still running after this long gets its WORKING row (see DeferredTaskRows). */
const UNWRITTEN_TASK_DELAY_MS = 50;
/** The `stored` answer of a task whose row is deferred to its outcome: known at once, shared by every such task. */
const STORED: Promise<boolean> = Promise.resolve(true);

/**
 * The task lifecycle of inbound A2A messages: create the task, route and dispatch the agent
 * run, settle the task from the run's outcome, answer blocking callers, let the run ask the peer for input
 * (INPUT_REQUIRED, answered by a SendMessage with the taskId), expire and retain tasks, and shut down without
 * leaving a caller hanging. See docs/a2a.md#sending-tasks, docs/a2a.md#multi-turn-input_required and docs/a2a.md#task-store.
 */
@Injectable()
export class A2aTaskService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('a2a');
  /** Blocked SendMessage callers per task. */
  private readonly waiters = new TaskWaiters();
  /** Runs waiting for a peer's answer (request_input), and the answers: delivered here or to the replica that asked. */
  private readonly answers: TaskInputAnswers;
  /** The task of each run in flight, for request_input; `stored` tells once the task row exists (false: it never will). */
  private readonly runTasks = new Map<string, { taskId: string; stored: Promise<boolean> }>();
  /** Settle writes in flight, awaited before the store closes. */
  private readonly settling = new Set<Promise<void>>();
  /** The settle of each task whose run is in flight, so a cancel can wait for the run to stop. */
  private readonly settlingByTask = new Map<string, Promise<void>>();
  /** Canceled tasks and why: an aborted run of one of these ends CANCELED with that status message, not FAILED. */
  private readonly canceled = new Map<string, string>();
  /** A blocking SendMessage's task row is written when it settles (or once it has run for a while). */
  private readonly rows: DeferredTaskRows;
  /** The replies of streamed tasks whose run is in flight, written as artifact chunks. */
  private readonly replies = new Map<string, StreamedReply>();
  /** Tasks whose run waits for an operator to approve a tool call (INPUT_REQUIRED meanwhile). */
  private readonly approvals: TaskApprovals;
  /** The lanes of blocking tasks in a context made up here, leased only once their row is written (LaneShare). */
  private readonly shares = new Map<string, LaneShare>();
  private readonly reveal = (task: A2aTask) => this.shares.get(task.id)?.share();
  private closing = false;
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    private readonly config: ConfigStore,
    private readonly routing: RoutingService,
    // Typed to what it uses (start, abort, shut down), so the task lifecycle can run over a stand-in runner.
    @Inject(AgentRunner)
    private readonly runner: Pick<AgentRunner, 'startRun' | 'abortRun' | 'drain' | 'shutdown'> &
      Partial<Pick<AgentRunner, 'resumeAfterApproval'>>,
    @Inject(TASK_STORE) private readonly store: TaskStore,
    @Inject(A2A_CLOCK) private readonly clock: Clock,
    private readonly attachments: A2aAttachments,
    // Optional so the lifecycle can run without streams or push (unit specs); the module always provides both.
    @Optional() private readonly events?: TaskEventBus,
    @Optional() @Inject(PUSH_STORE) private readonly pushStore?: PushStore,
    @Optional() private readonly remoteCancels?: RemoteTaskCancels,
    @Optional() private readonly remoteInputs?: RemoteTaskInputs,
    @Optional() gate?: ApprovalGate,
  ) {
    this.approvals = new TaskApprovals(gate, {
      store,
      clock,
      logger: this.logger,
      closing: () => this.closing,
      runsHere: (taskId) => this.settlingByTask.has(taskId),
      written: (taskId) => this.rows.written(taskId),
      release: (task) => this.waiters.release(task),
      resume: (approval, input) => this.runner.resumeAfterApproval?.(approval, input),
      adopt: (taskId, handle) => {
        this.runTasks.set(handle.runId, { taskId, stored: STORED });
        this.settleWhenDone(taskId, handle);
      },
    });
    this.answers = new TaskInputAnswers(store, attachments, clock, remoteInputs);
    this.rows = new DeferredTaskRows(store, UNWRITTEN_TASK_DELAY_MS, (task, err) => this.rowLost(task, err), this.reveal);
  }

  /** Nobody could ever read this task: it cannot go on, and its caller is told it failed. */
  private rowLost(task: A2aTask, err: Error): void {
    this.logger.error(`A2A task ${task.id} from peer ${task.peer} could not be stored: ${err.message}`);
    if (task.runId) this.runner.abortRun(task.runId, 'the A2A task could not be stored');
    this.waiters.fail(task.id, err);
  }

  async onModuleInit(): Promise<void> {
    // Whatever was unsettled belongs to a process that is gone: its runs will never report back.
    // A task that waited for input says so: its answer can no longer reach the run that asked.
    // Except a task waiting for an operator's approval: the decision resumes its work (task-approvals.ts).
    const awaitingApproval = await this.approvals.start();
    const failed = await this.store.failUnsettled((state, id) => {
      if (awaitingApproval.has(id)) return undefined;
      return state === 'TASK_STATE_INPUT_REQUIRED' ? A2A_MESSAGES.restartedWaitingForInput : A2A_MESSAGES.restarted;
    }, this.clock.now());
    if (failed) this.logger.warn(`${failed} A2A task(s) were unsettled when the gateway stopped; marked FAILED`);
    this.remoteCancels?.serve((id, reason) => this.stopRunHere(id, reason));
    this.remoteInputs?.serve((id, answer) => this.answers.deliverForwarded(id, answer));
    this.sweepTimer = setInterval(
      () => void this.sweep().catch((err: Error) => this.logger.error(`A2A task sweep failed: ${err.message}`)),
      TASK_SWEEP_INTERVAL_MS,
    );
    this.sweepTimer.unref();
  }

  /**
   * SendMessage and SendStreamingMessage for an authenticated peer: the task the message created (or answered), as the
   * caller is to see it first. `wait: false` (notifications, streams) never blocks; otherwise the caller waits up to
   * replyTimeoutMs unless the message asked to return immediately.
   */
  async accept(peer: string, input: SendMessageInput, options: AcceptOptions): Promise<A2aTask> {
    const snapshot = this.config.current();
    if (this.closing) throw new AppError(ErrorCode.Unavailable, A2A_MESSAGES.shuttingDown);
    if (input.taskId !== undefined) return this.answerInput(peer, { ...input, taskId: input.taskId }, options);
    const peerSettings = snapshot.config.channels.a2a.peers[peer];
    // A push URL the operator did not allow refuses the message: no task is made for a config that cannot be kept.
    const push = input.pushConfig
      ? readPushConfig(input.pushConfig, peerSettings, options.wire ?? '1.0', 'configuration.taskPushNotificationConfig.')
      : undefined;
    const origin = taskOrigin(peer, input, this.clock.now());

    const route = routeA2aConversation(snapshot, (m) => this.routing.resolve(m), peer, origin.contextId);
    if ('refused' in route) return this.insertSettled(origin, { state: 'TASK_STATE_REJECTED', reason: A2A_MESSAGES.noExposedAgent });
    // A peer submits tasks, not commands: its role field proves nothing about a human being behind it.
    if (isSlashCommand(input.text))
      return this.insertSettled(origin, { state: 'TASK_STATE_REJECTED', route, reason: A2A_MESSAGES.slashCommand });
    // Files are on disk before the run starts, so every path the agent is told about exists. Without files
    // nothing is awaited: the hot path stays one synchronous step from routing to dispatch.
    const message = input.files.length
      ? await this.attachments.agentMessage(route.agentId, origin.id, input.text, input.files)
      : { text: input.text, attachments: undefined };
    if (this.closing) throw new AppError(ErrorCode.Unavailable, A2A_MESSAGES.shuttingDown);

    // SUBMITTED lasts only until the run is queued, and no peer can observe it.
    const blocking = options.wait && !input.returnImmediately && !options.stream;
    // A caller that does not wait may follow the task (SubscribeToTask, push, here or on another replica): its reply is
    // written as the model streams it. A blocked caller is answered with the whole task, so its run does not stream.
    const reply = blocking ? undefined : new StreamedReply((chunk) => this.store.appendArtifact(origin.id, chunk));
    // A context made up here is known nowhere else until a deferred row is written (the answer comes after it): no
    // lane lease until then (docs/decisions.md#cluster). A peer's own context id may be in use elsewhere already.
    const deferred = blocking && !push;
    const share = deferred && input.contextId === undefined ? new LaneShare() : undefined;
    let handle: RunHandle;
    try {
      const carried = carriedBudgetOf(peerSettings, input.metadata);
      handle = this.runner.startRun({ ...a2aRunInput(origin, route.sessionKey, message, input.truncated, reply?.delta, carried), share });
    } catch (err) {
      this.logger.error(`A2A task ${origin.id} from peer ${peer}: the run could not start: ${(err as Error).stack ?? String(err)}`);
      return this.insertSettled(origin, { state: 'TASK_STATE_FAILED', route, reason: A2A_MESSAGES.runNotStarted });
    }
    const working = newTask(origin, { state: 'TASK_STATE_WORKING', route, runId: handle.runId, updatedAt: this.clock.now() });
    // A caller that waits is told nothing before the task settles: its row is written once, then — unless a push
    // config refers to the row (saved in the same commit, before any event can be recorded).
    if (share) this.shares.set(working.id, share);
    if (deferred) this.rows.defer(working);
    // A deferred row has nothing to wait for (it is written with the outcome): no promise is made for it.
    const inserted = deferred ? undefined : insertWithPush(this.store, this.pushStore, working, push, this.logger);
    this.runTasks.set(handle.runId, { taskId: working.id, stored: inserted?.then(() => true).catch(() => false) ?? STORED });
    if (inserted) {
      try {
        await inserted;
      } catch (err) {
        this.runTasks.delete(handle.runId);
        // No record, no task: the peer is told it failed, so the agent must not act on it either.
        this.runner.abortRun(handle.runId, 'the A2A task could not be stored');
        throw err;
      }
    }
    // Attached only now, so the settle write always lands after the WORKING one; chunks too.
    if (reply) this.replies.set(working.id, reply);
    reply?.open();
    this.settleWhenDone(working.id, handle);
    // A shutdown that began while the write was pending has already released its waiters: do not become a new one.
    if (!blocking) return working;
    if (this.closing) return (await this.rows.written(working.id)) ?? working;
    return this.waitSettled(working, snapshot.config.channels.a2a.replyTimeoutMs);
  }

  /** A task stored in its final state at once (refused, or its run could not start), with the reason. */
  private async insertSettled(origin: TaskOrigin, fields: NewTaskFields): Promise<A2aTask> {
    const settled = newTask(origin, fields);
    await this.store.insert(settled);
    return settled;
  }

  /**
   * request_input, for the run of an A2A task: the task becomes INPUT_REQUIRED with the question as its status
   * message (blocked callers are answered with it), and the run waits — at most channels.a2a.inputTimeoutMs, or
   * until it is aborted — for the peer's SendMessage with the taskId, whose text is the tool's result.
   */
  async requestInput(ctx: Pick<ToolContext, 'runId' | 'signal'>, question: string): Promise<ToolResult> {
    const run = ctx.runId ? this.runTasks.get(ctx.runId) : undefined;
    if (!run || !(await run.stored)) return { status: 'error', error: 'request_input works only in the run of an A2A task' };
    // The peer is about to be told about the task: it needs its row (a failure aborts this run).
    if (!(await this.rows.written(run.taskId).then(Boolean, () => false)))
      return { status: 'error', error: 'the task could not be stored' };
    const timeoutMs = this.config.current().config.channels.a2a.inputTimeoutMs;
    return this.answers.ask(run.taskId, question, { timeoutMs, signal: ctx.signal, asked: (task) => this.waiters.release(task) });
  }

  /**
   * A SendMessage with a taskId: the peer's answer to the task's INPUT_REQUIRED. Another peer's (or an unknown) task
   * is -32001, a contextId other than the task's -32602, a task that is over or not waiting for input -32004.
   * The waiting run — here, or on the replica that owns the task — continues with the text; the caller then waits as
   * for a new task.
   */
  private async answerInput(peer: string, input: SendMessageInput & { taskId: string }, options: AcceptOptions): Promise<A2aTask> {
    const task = await this.ownTask(peer, input.taskId);
    const refuse = (code: ErrorCode, message: string) => new AppError(code, message, [{ taskId: task.id }]);
    if (input.contextId !== undefined && input.contextId !== task.contextId)
      throw refuse(ErrorCode.InvalidParams, A2A_MESSAGES.contextMismatch);
    if (isTerminalState(task.state)) throw refuse(ErrorCode.UnsupportedOperation, A2A_MESSAGES.taskOver);
    const waitsForOperator = this.approvals.refusalOfInput(task.id);
    if (waitsForOperator) throw refuse(ErrorCode.UnsupportedOperation, waitsForOperator);
    const blocks = () => options.wait && !options.stream && !input.returnImmediately && !this.closing;
    const { replyTimeoutMs } = this.config.current().config.channels.a2a;
    const answer = { messageId: input.messageId, text: input.text, files: input.files };
    const runsHere = this.settlingByTask.has(task.id);
    const answered = await this.answers.deliver(task, answer, { runsHere, blockMs: blocks() ? replyTimeoutMs : undefined });
    if (!answered.waitHere || !blocks()) return answered.task;
    return this.waitSettled(answered.task, replyTimeoutMs);
  }

  /** GetTask: only the peer that created a task can read it; anyone else gets the same -32001 as for an unknown id. */
  async getTask(peer: string, input: GetTaskInput): Promise<A2aTask> {
    if (this.closing) throw new AppError(ErrorCode.Unavailable, A2A_MESSAGES.shuttingDown);
    return this.ownTask(peer, input.id);
  }

  /**
   * CancelTask: an unknown (or another peer's) task is -32001, a finished one -32002. A running one has its run
   * aborted (the model request and the tool loop stop on the run's signal) and is answered once the run has
   * stopped: CANCELED — or -32002 when the run finished before the abort reached it (its result stands).
   * The abort reaches the work the run started elsewhere (a sessions_send or sessions_spawn run in another session,
   * an outbound task at a peer), and the run — so the task — ends only once that has stopped too.
   */
  async cancelTask(peer: string, input: TaskIdInput): Promise<A2aTask> {
    if (this.closing) throw new AppError(ErrorCode.Unavailable, A2A_MESSAGES.shuttingDown);
    return this.cancel(await this.ownTask(peer, input.id), A2A_MESSAGES.canceledByPeer);
  }

  /** The operator's cancel (admin API): any peer's task, the same outcome as the peer's CancelTask. */
  async cancelAsOperator(id: string): Promise<A2aTask> {
    if (this.closing) throw new AppError(ErrorCode.Unavailable, A2A_MESSAGES.shuttingDown);
    const task = await this.rows.get(id);
    if (!task) throw new AppError(ErrorCode.TaskNotFound, A2A_MESSAGES.taskNotFound, [{ taskId: id }]);
    return this.cancel(task, A2A_MESSAGES.canceledByOperator);
  }

  private async cancel(task: A2aTask, reason: string): Promise<A2aTask> {
    const { id } = task;
    const notCancelable = () => new AppError(ErrorCode.TaskNotCancelable, A2A_MESSAGES.taskNotCancelable, [{ taskId: id }]);
    if (isTerminalState(task.state)) throw notCancelable();
    const settling = this.settlingByTask.get(id);
    // A task whose run a restart took while it waited for approval: the request is withdrawn, the task CANCELED.
    const withoutRun = settling ? undefined : await this.approvals.cancelWithoutRun(task, reason);
    if (withoutRun) return withoutRun;
    // Running in this process always means a settle is pending; else another replica may run it (remote-task-cancels.ts).
    if (!settling || !task.runId)
      return this.remoteCancels ? this.remoteCancels.cancel(task, reason) : Promise.reject(cancelUnsupported(id));
    this.stopRunHere(id, reason, task.runId);
    await settling;
    const settled = await this.store.get(id);
    if (!settled || settled.state !== 'TASK_STATE_CANCELED') throw notCancelable();
    return settled;
  }

  /** Aborts this process's run of the task as a cancel (also when another replica received the CancelTask). */
  private stopRunHere(id: string, reason: string, runId = [...this.runTasks].find(([, run]) => run.taskId === id)?.[0]): void {
    if (!runId || !this.settlingByTask.has(id)) return;
    this.canceled.set(id, reason);
    this.runner.abortRun(runId, reason);
  }

  /**
   * ListTasks: the calling peer's tasks only, most recently updated first, a page at a time; `nextPageToken`
   * is "" on the last page; an unreadable page token is -32602.
   */
  async listTasks(peer: string, input: ListTasksInput): Promise<TaskListPage> {
    if (this.closing) throw new AppError(ErrorCode.Unavailable, A2A_MESSAGES.shuttingDown);
    return listTasksPage(this.store, peer, input);
  }

  /** ownTask, with its row written first if it had none yet (something is about to refer to the row). */
  async ownStoredTask(peer: string, id: string): Promise<A2aTask> {
    const task = await this.ownTask(peer, id);
    return (await this.rows.written(id)) ?? task;
  }

  /** The task, when it exists and belongs to `peer`; anyone else gets the same -32001 as for an unknown id. */
  async ownTask(peer: string, id: string): Promise<A2aTask> {
    const task = await this.rows.get(id);
    if (!task || task.peer !== peer) throw new AppError(ErrorCode.TaskNotFound, A2A_MESSAGES.taskNotFound, [{ taskId: id }]);
    return task;
  }

  /** Retention and idle expiry (docs/a2a.md#task-store); runs every minute and on demand (tests, operators). */
  async sweep(): Promise<SweepOutcome> {
    const outcome = await this.store.sweep(this.clock.now(), A2A_MESSAGES.expired);
    for (const task of outcome.expired) this.waiters.release(task);
    if (outcome.expired.length) this.logger.warn(`${outcome.expired.length} A2A task(s) idle for an hour expired`);
    return outcome;
  }

  /**
   * Stops accepting tasks, answers every blocked caller with the task as it is now, lets the runtime abort
   * the runs (their tasks end FAILED), waits for those writes, then closes the store.
   */
  async onModuleDestroy(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.sweepTimer);
    // New messages are refused from here on; the runs in flight may finish first (gateway.drainMs), and a blocked
    // caller whose task settles meanwhile gets its result: the wait covers each task's outcome write, not only its run.
    const { drainMs } = this.config.current().config.gateway;
    await Promise.all([this.runner.drain(), drainMs > 0 ? settleWithin(this.settling, drainMs) : undefined]);
    // Every blocked caller is answered with its task as it is now, before the runs are aborted; one whose task has
    // no row yet once that row is written.
    for (const task of await this.rows.writeAll()) this.waiters.release(task);
    await this.waiters.releaseAll((id) => this.store.get(id));
    await this.runner.shutdown();
    await Promise.allSettled([...this.settling]);
    // The last events are published; whoever still streams is told the gateway is going away.
    this.events?.endAll();
    await this.store.close();
  }

  private settleWhenDone(taskId: string, run: RunHandle): void {
    const forget = () => {
      this.settling.delete(settling);
      this.settlingByTask.delete(taskId);
      this.canceled.delete(taskId);
      this.runTasks.delete(run.runId);
      this.answers.requests.forget(taskId);
      this.replies.delete(taskId);
      this.shares.delete(taskId);
    };
    // Two reactions, not then/catch/finally: every task passes here.
    const settling: Promise<void> = run.done
      .then((record) => this.settle(taskId, record))
      .then(forget, (err: Error) => {
        this.logger.error(`A2A task ${taskId}: could not record the run outcome: ${err.message}`);
        forget();
      });
    this.settling.add(settling);
    this.settlingByTask.set(taskId, settling);
  }

  /** Records the run's outcome unless the task is already terminal (expired, restarted): then the late result is dropped. */
  private async settle(taskId: string, run: RunRecord): Promise<void> {
    const decided = settledOutcome(run, this.canceled.get(taskId));
    // A streamed reply closes its artifact as chunks first; the transition then records the state alone.
    const finishing = this.replies.get(taskId)?.finish(decided);
    const outcome = finishing ? ((await finishing) ?? decided) : decided;
    const updated = await this.rows.settle(taskId, outcome, this.clock.now());
    if (updated) return this.waiters.release(updated);
    this.logger.log(`A2A task ${taskId} was already settled; the late ${run.status} result of run ${run.runId} is dropped`);
    const current = await this.store.get(taskId);
    if (current) this.waiters.release(current);
  }

  /** The task once it is terminal or interrupted (INPUT_REQUIRED), or as it is after `timeoutMs` (the run goes on). */
  private waitSettled(current: A2aTask, timeoutMs: number): Promise<A2aTask> {
    // At the timeout the caller is given the task's id, so the task must have its row before that answer.
    return this.waiters.wait(current, timeoutMs, () => this.rows.written(current.id, current));
  }
}
