import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { A2A_MESSAGES } from '../protocol/limits-and-messages';
import type { TaskEventBus } from './task-event-bus';
import type { TaskEvent } from '../model/task-events';

/** One item of a stream: its SSE `id` (the number of the task's last event it includes) and its 1.0 StreamResponse. */
export interface StreamItem {
  id: number;
  body: string;
  /** The stream ends after this item. */
  closes: boolean;
}

/** Where a stream's items go (a binding's SSE writer). After `end` or `fail`, nothing more is called. */
export interface StreamSink {
  item(item: StreamItem): void;
  end(): void;
  fail(error: AppError): void;
}

export interface StreamStart {
  taskId: string;
  /** The first item, the task as it is (SubscribeToTask, SendStreamingMessage); absent when a client resumes. */
  snapshot?: StreamItem;
  /** Events up to this number are known to the client (the snapshot's, or its Last-Event-ID). */
  after: number;
  /** The task was already closed for streams when the stream opened: once the store's events are sent, it ends. */
  closedAtOpen: boolean;
}

/**
 * One stream of a task's events: the snapshot (or nothing, for a client resuming after event n), the events after
 * that from the store, then the live ones from the bus, each exactly once and in order, until an event that closes
 * streams (terminal or interrupted state). It listens before it reads the store, so an event committed meanwhile is
 * in one or both and sent once (by its number); two streams of one task see the same items. Events are numbered
 * without gaps, so a live one after a gap (lost between replicas) sends the stream back to the store first.
 */
export class TaskEventStream {
  private sink?: StreamSink;
  private sent: number;
  /** Live events heard before the store was read. */
  private early: TaskEvent[] = [];
  private replayed = false;
  private catchingUp = false;
  private catchUpAgain = false;
  private done = false;
  /** How the stream ended before it had a sink (shutdown between open and pipe): told to the sink at once. */
  private endedEarly?: { error?: AppError };
  private readonly stopListening: () => void;

  constructor(
    private readonly start: StreamStart,
    private readonly bus: TaskEventBus,
    private readonly replay: (taskId: string, after: number) => Promise<TaskEvent[]>,
  ) {
    this.sent = start.after;
    this.stopListening = bus.listen(start.taskId, {
      event: (event) => (this.replayed ? this.deliver(event, false) : this.early.push(event)),
      ended: () => this.finish(new AppError(ErrorCode.Unavailable, A2A_MESSAGES.shuttingDown)),
      // Before pipe the first catch-up is still to come; it reads the store then anyway.
      resync: () => {
        if (this.sink) this.catchUp();
      },
    });
  }

  /** Starts delivery to `sink`: the snapshot at once, the rest as it comes. */
  pipe(sink: StreamSink): void {
    this.sink = sink;
    if (this.endedEarly) return this.report(this.endedEarly.error);
    if (this.start.snapshot) this.emit(this.start.snapshot);
    if (this.done) return;
    // Across replicas the store is read once other replicas' events are heard, so none falls between the two.
    const ready = this.bus.ready(this.start.taskId);
    if (ready) void ready.then(() => this.catchUp());
    else this.catchUp();
  }

  /**
   * Sends the store's events after the last one sent, then those heard meanwhile: at the start, and again when an
   * event from another replica shows a gap (one was lost on the way) or the connection to them was interrupted.
   */
  private catchUp(): void {
    if (this.done) return;
    if (this.catchingUp) {
      this.catchUpAgain = true;
      return;
    }
    this.catchingUp = true;
    this.replayed = false;
    void this.replay(this.start.taskId, this.sent).then(
      (events) => {
        for (const event of events) this.deliver(event, true);
        this.replayed = true;
        this.catchingUp = false;
        const early = this.early;
        this.early = [];
        for (const event of early) this.deliver(event, true);
        if (!this.done && this.start.closedAtOpen) this.finish();
        if (this.catchUpAgain) {
          this.catchUpAgain = false;
          this.catchUp();
        }
      },
      // The store's error stays in the log of whoever reads it; the client learns only that the stream failed.
      () => this.finish(new AppError(ErrorCode.Internal, A2A_MESSAGES.internal)),
    );
  }

  /** The client went away (or fell behind): stop without telling it anything more. */
  close(): void {
    this.done = true;
    this.stopListening();
  }

  /** `fromStore`: in the order the store gave, taken as it is; a live event after a gap first has the store read. */
  private deliver(event: TaskEvent, fromStore: boolean): void {
    if (this.done || event.n <= this.sent) return;
    if (!fromStore && event.n > this.sent + 1) {
      this.early.push(event);
      return this.catchUp();
    }
    this.sent = event.n;
    this.emit({ id: event.n, body: event.body, closes: event.closes });
  }

  private emit(item: StreamItem): void {
    if (this.done) return;
    this.sink?.item(item);
    if (item.closes) this.finish();
  }

  private finish(error?: AppError): void {
    if (this.done) return;
    this.close();
    if (this.sink) this.report(error);
    else this.endedEarly = { error };
  }

  private report(error: AppError | undefined): void {
    if (error) this.sink?.fail(error);
    else this.sink?.end();
  }
}
