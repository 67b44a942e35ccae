import { Counter, Gauge, type Registry } from 'prom-client';

/** What the cluster module counts (cluster mode), read at each scrape. */
export interface ClusterCounts {
  readonly rateLimitFallbacks: number;
  readonly laneLeaseFallbacks: number;
  readonly heartbeatFailures: number;
  readonly taskEventsPublished: number;
  readonly taskEventsReceived: number;
  readonly taskEventPublishFailures: number;
  readonly taskEventResyncs: number;
  /** 1 after a heartbeat that reached Redis, 0 after one that failed; undefined in single mode. */
  readonly redisUp?: number;
}

/** The cluster's counters, read at each scrape (docs/deploy.md#cluster-coordination). */
export function registerClusterMetrics(registry: Registry, counters: ClusterCounts): void {
  new Gauge({
    name: 'clawgate_cluster_redis_up',
    help: 'Cluster mode: 1 when the last heartbeat reached Redis, 0 when it failed (absent in single mode).',
    registers: [registry],
    collect() {
      this.reset();
      if (counters.redisUp !== undefined) this.set(counters.redisUp);
    },
  });
  new Counter({
    name: 'clawgate_cluster_rate_limit_fallback_total',
    help: 'Rate-limit checks counted by this replica alone because Redis failed (cluster mode).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(counters.rateLimitFallbacks);
    },
  });
  new Counter({
    name: 'clawgate_cluster_lane_lease_fallback_total',
    help: 'Runs that went ahead without their session lane lease because Redis failed (cluster mode).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(counters.laneLeaseFallbacks);
    },
  });
  new Counter({
    name: 'clawgate_cluster_heartbeat_failures_total',
    help: 'Heartbeats of this replica that did not reach Redis (cluster mode).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(counters.heartbeatFailures);
    },
  });
  const taskEventCounters: Array<[string, string, () => number]> = [
    [
      'clawgate_cluster_task_event_messages_published_total',
      'Messages of A2A task events this replica published for the other replicas.',
      () => counters.taskEventsPublished,
    ],
    [
      'clawgate_cluster_task_event_messages_received_total',
      'Messages of A2A task events this replica heard from other replicas for its streams.',
      () => counters.taskEventsReceived,
    ],
    [
      'clawgate_cluster_task_event_publish_failures_total',
      'Messages of A2A task events that did not reach Redis (the streams elsewhere catch up from the store).',
      () => counters.taskEventPublishFailures,
    ],
    [
      'clawgate_cluster_task_event_resyncs_total',
      "Times this replica re-read its streams' events from the store after a Redis interruption.",
      () => counters.taskEventResyncs,
    ],
  ];
  for (const [name, help, read] of taskEventCounters) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }
}
