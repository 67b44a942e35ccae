import { Counter, Gauge, type Registry } from 'prom-client';

/** What the cluster module counts (cluster mode), read at each scrape. */
export interface ClusterCounts {
  readonly rateLimitFallbacks: number;
  readonly laneLeaseFallbacks: number;
  readonly heartbeatFailures: number;
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
}
