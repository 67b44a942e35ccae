import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type {
  FannedTaskEvent,
  ForwardedTaskInput,
  RemoteTaskEventListener,
  RemoteTaskEventSubscription,
  TaskEventFanout,
  TaskInputForwarding,
  TaskInputReply,
} from '../../common/coordination/task-event-fanout';
import { describeRedisError } from './redis-connection';

/**
 * Channels: one per task (only replicas with a stream of it subscribe), one per owner for cancels and one for
 * answers to INPUT_REQUIRED, one per replica for the replies to the answers it forwarded, one to resync.
 */
const EVENTS_PREFIX = 'clawgate:a2a:task-events:';
const CANCEL_PREFIX = 'clawgate:a2a:task-cancel:';
const INPUT_PREFIX = 'clawgate:a2a:task-input:';
const INPUT_REPLY_PREFIX = 'clawgate:a2a:task-input-reply:';
const RESYNC_CHANNEL = 'clawgate:a2a:task-events-resync';

/** A forwarded answer: where the reply goes and the id it is matched by. */
interface InputMessage {
  id: string;
  replyTo: string;
  taskId: string;
  answer: unknown;
}

/** Counted into the cluster's counters (the metrics read them). */
export interface FanoutCounters {
  taskEventsPublished: number;
  taskEventsReceived: number;
  taskEventPublishFailures: number;
  taskEventResyncs: number;
}

/** What a replica publishes for one task: who sent it (a replica ignores its own) and the events, numbered. */
interface EventsMessage {
  from: string;
  events: Array<{ n: number; body: string; closes: boolean }>;
}

/**
 * Task events and cancel requests between replicas over Redis pub/sub. Publishing uses the cluster's command
 * connection (after the store's commit, so a receiver never hears of a change it could not read); hearing needs a
 * connection of its own, since a subscribed Redis connection runs no other commands. Pub/sub keeps no message: what a
 * replica missed while a connection was down is read from the store by sequence, on the resync that follows — its own
 * subscriber reconnecting, or a replica whose publish failed telling everyone once it is back.
 */
export class RedisTaskEventFanout implements TaskEventFanout {
  private readonly logger = new Logger('cluster');
  private readonly listeners = new Map<string, RemoteTaskEventListener>();
  private readonly cancelHandlers = new Map<string, (taskId: string, reason: string) => void>();
  private readonly inputHandlers = new Map<string, (input: ForwardedTaskInput) => Promise<TaskInputReply>>();
  /** Answers this replica forwarded, waiting for their owner's reply, by request id. */
  private readonly awaitingReplies = new Map<string, (reply: TaskInputReply) => void>();
  private readonly replyChannel: string;
  /** A publish failed: the others may have missed events, and are told to resync once Redis answers again. */
  private missed = false;
  private connectedBefore = false;
  /** Set at each heartbeat from the replicas' entries (ClusterService); false until first known. */
  marksEverywhere = false;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly replicaId: string,
    private readonly counters: FanoutCounters,
  ) {
    this.replyChannel = INPUT_REPLY_PREFIX + replicaId;
    subscriber.on('message', (channel: string, text: string) => this.heard(channel, text));
    // Subscriptions are made again by hand (autoResubscribe is off), then every stream reads what it may have missed.
    subscriber.on('ready', () => {
      if (this.connectedBefore) this.resubscribe();
      this.connectedBefore = true;
    });
    publisher.on('ready', () => {
      if (!this.missed) return;
      this.missed = false;
      void publisher.publish(RESYNC_CHANNEL, replicaId).catch(() => (this.missed = true));
    });
  }

  /** Connects the subscriber connection (within the connection's timeout) and listens for resyncs and replies. */
  async start(): Promise<void> {
    await this.subscriber.connect();
    await this.subscriber.subscribe(RESYNC_CHANNEL, this.replyChannel);
  }

  publish(events: readonly FannedTaskEvent[]): void {
    // Grouped by task: one message per task and commit, in commit order (Redis keeps a connection's order).
    if (!events.length) return;
    let taskId = events[0].taskId;
    let group: EventsMessage['events'] = [];
    for (const event of events) {
      if (event.taskId !== taskId) {
        this.send(taskId, group);
        taskId = event.taskId;
        group = [];
      }
      group.push({ n: event.n, body: event.body, closes: event.closes });
    }
    this.send(taskId, group);
  }

  subscribe(taskId: string, listener: RemoteTaskEventListener): RemoteTaskEventSubscription {
    this.listeners.set(taskId, listener);
    const channel = EVENTS_PREFIX + taskId;
    const ready = this.subscriber.subscribe(channel).then(
      () => undefined,
      (err: unknown) => this.logger.warn(`could not hear task ${taskId}'s events from other replicas: ${describeRedisError(err)}`),
    );
    return {
      ready,
      stop: () => {
        if (this.listeners.get(taskId) !== listener) return;
        this.listeners.delete(taskId);
        void this.subscriber.unsubscribe(channel).catch(() => undefined);
      },
    };
  }

  async requestCancel(owner: string, taskId: string, reason: string): Promise<boolean> {
    try {
      return (await this.publisher.publish(CANCEL_PREFIX + owner, JSON.stringify({ taskId, reason }))) > 0;
    } catch (err) {
      this.logger.warn(`could not ask the replica running task ${taskId} to cancel it: ${describeRedisError(err)}`);
      return false;
    }
  }

  serveCancels(owner: string, handler: (taskId: string, reason: string) => void): () => void {
    const channel = CANCEL_PREFIX + owner;
    this.cancelHandlers.set(channel, handler);
    void this.subscriber
      .subscribe(channel)
      .catch((err: unknown) => this.logger.warn(`cannot hear cancel requests from other replicas yet: ${describeRedisError(err)}`));
    return () => {
      this.cancelHandlers.delete(channel);
      void this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  async forwardInput(owner: string, input: ForwardedTaskInput, timeoutMs: number): Promise<TaskInputForwarding> {
    const id = randomUUID();
    const message: InputMessage = { id, replyTo: this.replicaId, taskId: input.taskId, answer: input.answer };
    // Waiting before asking: a quick reply cannot arrive before anyone listens for it.
    let timer: NodeJS.Timeout | undefined;
    const replied = new Promise<TaskInputForwarding>((resolve) => {
      this.awaitingReplies.set(id, resolve);
      timer = setTimeout(() => resolve({ unanswered: 'no-reply' }), timeoutMs);
    });
    try {
      const heard = await this.publisher.publish(INPUT_PREFIX + owner, JSON.stringify(message)).catch((err: unknown) => {
        this.logger.warn(`could not pass an answer for task ${input.taskId} to the replica running it: ${describeRedisError(err)}`);
        return 0;
      });
      return heard > 0 ? await replied : { unanswered: 'no-owner' };
    } finally {
      clearTimeout(timer);
      this.awaitingReplies.delete(id);
    }
  }

  serveInputs(owner: string, handler: (input: ForwardedTaskInput) => Promise<TaskInputReply>): () => void {
    const channel = INPUT_PREFIX + owner;
    this.inputHandlers.set(channel, handler);
    void this.subscriber
      .subscribe(channel)
      .catch((err: unknown) => this.logger.warn(`cannot hear answers from other replicas yet: ${describeRedisError(err)}`));
    return () => {
      this.inputHandlers.delete(channel);
      void this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  everyReplicaMarksFollows(): boolean {
    return this.marksEverywhere;
  }

  async stop(): Promise<void> {
    this.listeners.clear();
    this.cancelHandlers.clear();
    this.inputHandlers.clear();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }

  private send(taskId: string, events: EventsMessage['events']): void {
    const message: EventsMessage = { from: this.replicaId, events };
    this.counters.taskEventsPublished++;
    this.publisher.publish(EVENTS_PREFIX + taskId, JSON.stringify(message)).catch(() => {
      // The connection logs the cause; the receivers recover from the store once told to resync.
      this.counters.taskEventPublishFailures++;
      this.missed = true;
    });
  }

  private heard(channel: string, text: string): void {
    if (channel === RESYNC_CHANNEL) {
      if (text !== this.replicaId) this.resyncAll();
      return;
    }
    if (channel === this.replyChannel) {
      const reply = parse<{ id?: unknown; reply?: TaskInputReply }>(text);
      if (typeof reply?.id === 'string' && typeof reply.reply?.delivered === 'boolean') this.awaitingReplies.get(reply.id)?.(reply.reply);
      return;
    }
    if (channel.startsWith(INPUT_PREFIX)) {
      const handler = this.inputHandlers.get(channel);
      const request = parse<Partial<InputMessage>>(text);
      if (handler && typeof request?.id === 'string' && typeof request.replyTo === 'string' && typeof request.taskId === 'string')
        void this.answer(handler, request as InputMessage);
      return;
    }
    if (channel.startsWith(CANCEL_PREFIX)) {
      const request = parse<{ taskId?: unknown; reason?: unknown }>(text);
      if (typeof request?.taskId === 'string' && typeof request.reason === 'string')
        this.cancelHandlers.get(channel)?.(request.taskId, request.reason);
      return;
    }
    const taskId = channel.slice(EVENTS_PREFIX.length);
    const listener = this.listeners.get(taskId);
    const message = parse<EventsMessage>(text);
    if (!listener || !message || message.from === this.replicaId || !Array.isArray(message.events)) return;
    this.counters.taskEventsReceived++;
    listener.events(message.events.map((e) => ({ taskId, n: e.n, body: e.body, closes: e.closes })));
  }

  /** Runs the handler for a forwarded answer and sends its reply (a failing handler is an internal refusal). */
  private async answer(handler: (input: ForwardedTaskInput) => Promise<TaskInputReply>, request: InputMessage): Promise<void> {
    const reply = await handler({ taskId: request.taskId, answer: request.answer }).catch((err: unknown): TaskInputReply => {
      this.logger.error(`an answer for task ${request.taskId} from another replica failed here: ${(err as Error).message}`);
      return { delivered: false, code: 'INTERNAL', message: 'the answer could not be delivered to the waiting run' };
    });
    await this.publisher
      .publish(INPUT_REPLY_PREFIX + request.replyTo, JSON.stringify({ id: request.id, reply }))
      .catch((err: unknown) => this.logger.warn(`could not reply to an answer for task ${request.taskId}: ${describeRedisError(err)}`));
  }

  private resubscribe(): void {
    const channels = [
      RESYNC_CHANNEL,
      this.replyChannel,
      ...[...this.listeners.keys()].map((id) => EVENTS_PREFIX + id),
      ...this.cancelHandlers.keys(),
      ...this.inputHandlers.keys(),
    ];
    void this.subscriber.subscribe(...channels).then(
      () => this.resyncAll(),
      (err: unknown) => this.logger.warn(`could not hear other replicas' task events again: ${describeRedisError(err)}`),
    );
  }

  private resyncAll(): void {
    this.counters.taskEventResyncs++;
    for (const listener of [...this.listeners.values()]) listener.resync();
  }
}

function parse<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
