import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
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

  constructor(store: ConfigStore) {
    collectDefaultMetrics({ register: this.registry, prefix: 'clawgate_' });
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
