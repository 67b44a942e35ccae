import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { ClusterService } from '../cluster';
import { ConfigStore } from '../config';

/** The Prometheus registry of this gateway (one per app instance, so tests can boot several). */
@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly reloads = new Counter({
    name: 'clawgate_config_reload_total',
    help: 'Config reload attempts by result (applied, unchanged, rejected).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  private readonly revisionInfo = new Gauge({
    name: 'clawgate_config_revision_info',
    help: 'The config revision being served (value 1).',
    labelNames: ['revision'] as const,
    registers: [this.registry],
  });
  private readonly unsubscribe: () => void;

  constructor(store: ConfigStore, cluster: ClusterService) {
    collectDefaultMetrics({ register: this.registry, prefix: 'clawgate_' });
    registerClusterMetrics(this.registry, cluster);
    for (const result of ['applied', 'unchanged', 'rejected']) this.reloads.inc({ result }, 0);
    this.unsubscribe = store.onReloaded((outcome) => {
      if (outcome.trigger !== 'boot') this.reloads.inc({ result: outcome.status });
      this.revisionInfo.reset();
      this.revisionInfo.set({ revision: outcome.revision }, 1);
    });
    if (store.isLoaded()) this.revisionInfo.set({ revision: store.current().revision }, 1);
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}

/** The cluster's counters, read at each scrape (docs/deployment.md#cluster-coordination). */
function registerClusterMetrics(registry: Registry, cluster: ClusterService): void {
  const { counters } = cluster;
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
