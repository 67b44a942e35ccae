import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InProcessRateLimitWindows, RateLimitWindows } from '../../common/rate-limit/rate-limit-windows';
import { ConfigStore } from '../config';
import { ClusterRedisUnreachableError, connectRedis, describeRedisError, RedisConnection } from './redis-connection';
import { RedisRateLimitWindows } from './redis-rate-limit-windows';
import { RedisLaneLeases } from './redis-lane-leases';
import type { LaneLeases } from '../../common/coordination/lane-leases';
import type { TaskEventFanout } from '../../common/coordination/task-event-fanout';
import { RedisTaskEventFanout } from './redis-task-event-fanout';
import { HEARTBEAT_INTERVAL_MS, ReplicaInfo, ReplicaRegistry } from './replica-registry';

export type ClusterMode = 'single' | 'cluster';

export interface RedisHealth {
  /** `host:port`; never a credential. */
  address: string;
  reachable: boolean;
  /** Why the last command failed, while it is unreachable. */
  error?: string;
}

export interface ClusterStatus {
  mode: ClusterMode;
  self: string;
  /** Cluster mode only. */
  redis?: RedisHealth;
  /** The live replicas (this one included); single mode, or while Redis is unreachable: this replica alone. */
  replicas: OwningReplica[];
}

/** A replica and, when the tasks are in a shared store, how many unsettled tasks (each one run) it owns. */
export type OwningReplica = ReplicaInfo & { ownedTasks?: number };

/** Unsettled tasks per owning replica id; registered by the module that keeps tasks (undefined: not countable). */
export type OwnedTaskCounter = () => Promise<Map<string, number> | undefined>;

/** What the metrics read (docs/deploy.md#cluster-coordination). */
export interface ClusterCounters {
  rateLimitFallbacks: number;
  /** Runs that went ahead without their lane's lease because Redis failed. */
  laneLeaseFallbacks: number;
  heartbeatFailures: number;
  /** A2A task events: messages this replica published, heard from others, publishes that failed, resyncs from the store. */
  taskEventsPublished: number;
  taskEventsReceived: number;
  taskEventPublishFailures: number;
  taskEventResyncs: number;
  /** 1 after a heartbeat that reached Redis, 0 after one that failed; undefined in single mode. */
  redisUp?: number;
}

const GATEWAY_VERSION = process.env.npm_package_version ?? '0.1.0';

/**
 * `gateway.cluster`: chosen once at start (the key needs a restart). Without it the gateway is one process on
 * its own and nothing here touches the network. With it, `start()` connects to Redis (failing the start, naming
 * host:port, when it cannot), registers this replica and keeps its heartbeat, and the shared pieces (rate-limit
 * windows) take their state from Redis.
 */
@Injectable()
export class ClusterService implements OnModuleDestroy {
  private readonly logger = new Logger('cluster');
  private readonly startedAt = new Date().toISOString();
  /** Unique per process: host and pid make it readable, the random part keeps a reused pid apart. */
  readonly replicaId = `${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  readonly counters: ClusterCounters = {
    rateLimitFallbacks: 0,
    laneLeaseFallbacks: 0,
    heartbeatFailures: 0,
    taskEventsPublished: 0,
    taskEventsReceived: 0,
    taskEventPublishFailures: 0,
    taskEventResyncs: 0,
  };
  private connection?: RedisConnection;
  private registry?: ReplicaRegistry;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private readonly sharedWindows = new Map<string, RedisRateLimitWindows>();
  private leases?: RedisLaneLeases;
  private fanout?: RedisTaskEventFanout;
  private ownedTaskCounter?: OwnedTaskCounter;

  constructor(private readonly config: ConfigStore) {}

  get mode(): ClusterMode {
    return this.connection ? 'cluster' : 'single';
  }

  /** Connects and joins when `gateway.cluster` is set; throws ClusterRedisUnreachableError when Redis cannot be reached. */
  async start(): Promise<void> {
    const settings = this.config.current().config.gateway.cluster;
    if (!settings) return;
    const connection = await connectRedis(settings, this.logger);
    this.connection = connection;
    this.registry = new ReplicaRegistry(connection.client);
    await this.registry.register(this.selfInfo());
    this.fanout = this.startFanout(connection);
    await this.fanout.start().catch((err: unknown) => {
      throw new ClusterRedisUnreachableError(connection.address, describeRedisError(err));
    });
    this.counters.redisUp = 1;
    void this.checkFollowMarks();
    this.timer = setInterval(() => void this.heartbeat(), HEARTBEAT_INTERVAL_MS);
    this.timer.unref();
    // A new revision is visible to the other replicas at once, not only at the next beat.
    this.unsubscribe = this.config.onApplied(() => void this.heartbeat());
    this.logger.log(`replica ${this.replicaId} joined the cluster through Redis at ${connection.address}`);
  }

  /**
   * The rate-limit windows of `namespace`: shared through Redis in cluster mode, else `local`. The choice is
   * made per call because the windows are built (by the module that uses them) before `start()` has run.
   */
  rateLimitWindows(namespace: string, local: InProcessRateLimitWindows): RateLimitWindows {
    const pick = (): RateLimitWindows => this.sharedRateLimitWindows(namespace, local) ?? local;
    return {
      take: (key, count, limit, windowMs) => pick().take(key, count, limit, windowMs),
      forget: (key) => pick().forget(key),
      keys: () => pick().keys(),
    };
  }

  /** The session lanes' leases in cluster mode; undefined while this is a single process. */
  laneLeases(): LaneLeases | undefined {
    const connection = this.connection;
    if (!connection) return undefined;
    this.leases ??= new RedisLaneLeases(connection.client, {
      replicaId: this.replicaId,
      address: connection.address,
      fallbacks: { inc: () => this.counters.laneLeaseFallbacks++ },
    });
    return this.leases;
  }

  /** How A2A task events and cancels reach the other replicas; undefined while this is a single process. */
  taskEventFanout(): TaskEventFanout | undefined {
    return this.fanout;
  }

  /**
   * Which of the replica ids `owners` still hold their ownership lease (15 s after their last heartbeat). Cluster mode
   * only; throws while Redis fails, so nobody is taken for dead because Redis could not be asked.
   */
  async liveOwners(owners: readonly string[]): Promise<Set<string>> {
    if (!this.registry) throw new Error('liveOwners needs gateway.cluster');
    return this.registry.leaseHolders(owners);
  }

  /** The per-replica task counts GET /admin/cluster shows. */
  countOwnedTasksWith(counter: OwnedTaskCounter): void {
    this.ownedTaskCounter = counter;
  }

  /** Single mode: undefined. Cluster mode: a PING now (within the command timeout). */
  async redisHealth(): Promise<RedisHealth | undefined> {
    const connection = this.connection;
    if (!connection) return undefined;
    try {
      await connection.client.ping();
      return { address: connection.address, reachable: true };
    } catch (err) {
      return { address: connection.address, reachable: false, error: describeRedisError(err) };
    }
  }

  async status(): Promise<ClusterStatus> {
    const status = await this.membership();
    const counts = await this.ownedTaskCounter?.().catch(() => undefined);
    if (!counts) return status;
    return { ...status, replicas: status.replicas.map((r) => ({ ...r, ownedTasks: counts.get(r.id) ?? 0 })) };
  }

  private async membership(): Promise<ClusterStatus> {
    const self = this.selfInfo();
    if (!this.registry) return { mode: 'single', self: self.id, replicas: [self] };
    const redis = (await this.redisHealth())!;
    if (!redis.reachable) return { mode: 'cluster', self: self.id, redis, replicas: [self] };
    try {
      return { mode: 'cluster', self: self.id, redis, replicas: await this.registry.list() };
    } catch (err) {
      return { mode: 'cluster', self: self.id, redis: { ...redis, reachable: false, error: describeRedisError(err) }, replicas: [self] };
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe?.();
    const connection = this.connection;
    if (!connection) return;
    // Leave at once instead of after the TTL; if Redis is gone the entry expires by itself.
    await this.registry?.deregister(this.replicaId).catch(() => undefined);
    await this.fanout?.stop();
    await connection.client.quit().catch(() => connection.client.disconnect());
  }

  private async heartbeat(): Promise<void> {
    try {
      await this.registry?.register(this.selfInfo());
      this.counters.redisUp = 1;
    } catch {
      // The connection logs what went wrong; readiness and the metrics report it.
      this.counters.heartbeatFailures++;
      this.counters.redisUp = 0;
    }
    await this.checkFollowMarks();
  }

  /** Whether the task events of unfollowed tasks may stay here: only while no replica of an earlier version is up. */
  private async checkFollowMarks(): Promise<void> {
    if (!this.fanout || !this.registry) return;
    this.fanout.marksEverywhere = await this.registry.everyReplicaMarksFollows().catch(() => false);
  }

  private selfInfo(): ReplicaInfo {
    return {
      id: this.replicaId,
      version: GATEWAY_VERSION,
      pid: process.pid,
      host: os.hostname(),
      startedAt: this.startedAt,
      configRevision: this.config.current().revision,
      heartbeatAt: new Date().toISOString(),
    };
  }

  /** The events' subscriber is a second connection: a subscribed one runs no other commands. */
  private startFanout(connection: RedisConnection): RedisTaskEventFanout {
    const subscriber = connection.client.duplicate({ connectionName: 'clawgate-events', autoResubscribe: false, lazyConnect: true });
    // Its errors are the command connection's too, which logs them; unheard, an 'error' event would throw.
    subscriber.on('error', () => undefined);
    return new RedisTaskEventFanout(connection.client, subscriber, this.replicaId, this.counters);
  }

  private sharedRateLimitWindows(namespace: string, local: InProcessRateLimitWindows): RedisRateLimitWindows | undefined {
    const connection = this.connection;
    if (!connection) return undefined;
    let windows = this.sharedWindows.get(namespace);
    if (!windows) {
      windows = new RedisRateLimitWindows(connection.client, {
        namespace,
        replicaId: this.replicaId,
        address: connection.address,
        fallback: local,
        fallbacks: { inc: () => this.counters.rateLimitFallbacks++ },
      });
      this.sharedWindows.set(namespace, windows);
    }
    return windows;
  }
}
