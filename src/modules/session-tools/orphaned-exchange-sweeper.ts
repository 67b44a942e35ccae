import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ClusterService, LapsedOwnerSweep } from '../cluster';
import { EXCHANGE_STORE, type OwnedExchangesSource } from './exchange-store.port';

/**
 * With exchanges in PostgreSQL and gateway.cluster, a replica that is gone (its ownership lease lapsed, confirmed
 * across checks by the cluster's LapsedOwnerSweep, as for A2A tasks) leaves its running exchanges behind: another
 * replica marks exactly those interrupted, once. A live replica's running exchanges are never touched. Without the
 * cluster nothing runs here: the next process on a state dir marks what the last one left (at the store's open).
 */
@Injectable()
export class OrphanedExchangeSweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('sessions_send');
  private readonly lapsed: LapsedOwnerSweep;

  constructor(
    @Inject(EXCHANGE_STORE) store: Partial<OwnedExchangesSource>,
    // Typed to what it uses, so the sweep can be checked over a stand-in cluster.
    @Inject(ClusterService) cluster: Pick<ClusterService, 'mode' | 'replicaId' | 'liveOwners'>,
  ) {
    const now = Date.now;
    this.lapsed = new LapsedOwnerSweep(cluster, {
      now,
      work: () => {
        const owned = store.ownedExchanges?.();
        return (
          owned && {
            leasedOwners: async () => (await owned.runningByOwner()).filter((o) => o.leased).map((o) => o.owner),
            release: (owner) => owned.interruptOwned(owner, new Date(now()).toISOString()),
          }
        );
      },
      released: (owner, count) =>
        this.logger.warn(`replica ${owner} stopped (its lease expired); ${count} sessions_send exchange(s) it ran marked interrupted`),
      failed: (err) => this.logger.warn(`the sweep for stopped replicas' sessions_send exchanges could not run: ${err.message}`),
    });
  }

  onModuleInit(): void {
    this.lapsed.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.lapsed.stop();
  }

  /** One pass (also called by tests): how many exchanges of gone owners it marked. */
  sweep(): Promise<number> {
    return this.lapsed.sweep();
  }
}
