import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ClusterService } from '../cluster';
import { ConfigStore } from '../config';
import { GatewayMetrics, type MetricsView } from '../metrics';

/** Feeds the config's series (reloads, the revision served) and serves the gateway's metrics text. */
@Injectable()
export class MetricsService implements OnModuleDestroy {
  private readonly unsubscribe: () => void;

  constructor(
    store: ConfigStore,
    private readonly metrics: GatewayMetrics,
    cluster: ClusterService,
  ) {
    metrics.observeCluster(cluster.counters);
    this.unsubscribe = store.onReloaded((outcome) => {
      if (outcome.trigger !== 'boot') metrics.configReload(outcome.status);
      metrics.configRevision(outcome.revision);
    });
    if (store.isLoaded()) metrics.configRevision(store.current().revision);
  }

  /** The Prometheus text format of every series, as `view` may see them. */
  text(view: MetricsView): Promise<string> {
    return this.metrics.text(view);
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}
