import { Logger, OnModuleInit } from '@nestjs/common';
import type { ConfigStore } from '../config';
import type { ExchangeRecord } from './exchange-record';
import type { AgentPairCount, ExchangeStore, OwnedExchanges } from './exchange-store.port';

/** Injection token of the module's ExchangeStore (a SelectedExchangeStore). */
export const EXCHANGE_STORE = Symbol('EXCHANGE_STORE');

export interface ExchangeBackends {
  /** The SQLite store in the state dir (no file until its first write). */
  sqlite(): ExchangeStore;
  /** The PostgreSQL store at `url`; rejects, naming the server only, when it cannot be reached. */
  postgres(url: string): Promise<ExchangeStore & OwnedExchanges>;
  /** How a log line names the server (`host:port/database`). */
  describe(url: string): string;
}

/**
 * The exchange store `gateway.state` names (read once: the key takes effect at a restart). Providers are built before
 * the config is loaded, so the choice is made at module init, which comes after the load (an unreachable server
 * fails the start there), or at the first call when that comes first. The store not chosen is never opened: with
 * PostgreSQL no `exchanges.sqlite` is made.
 */
export class SelectedExchangeStore implements ExchangeStore, OnModuleInit {
  private chosen?: ExchangeStore;
  private shared?: OwnedExchanges;
  private choosing?: Promise<ExchangeStore>;
  private readonly logger = new Logger('sessions_send');

  constructor(
    private readonly config: Pick<ConfigStore, 'isLoaded' | 'current'>,
    private readonly backends: ExchangeBackends,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.isLoaded()) await this.choice();
  }

  save(current: () => ExchangeRecord): Promise<void> {
    return this.use((s) => s.save(current));
  }
  find(runId: string): Promise<ExchangeRecord | undefined> {
    return this.use((s) => s.find(runId));
  }
  pairCounts(since: number): Promise<AgentPairCount[]> {
    return this.use((s) => s.pairCounts(since));
  }

  /** The exchanges by owner while they are in PostgreSQL (shared by replicas); undefined with SQLite or before the choice. */
  ownedExchanges(): OwnedExchanges | undefined {
    return this.shared;
  }

  async close(): Promise<void> {
    const chosen = await this.choosing?.catch(() => undefined);
    await chosen?.close();
  }

  private use<T>(fn: (store: ExchangeStore) => Promise<T>): Promise<T> {
    if (this.chosen) return fn(this.chosen);
    return this.choice().then(fn);
  }

  private choice(): Promise<ExchangeStore> {
    return (this.choosing ??= this.choose());
  }

  private async choose(): Promise<ExchangeStore> {
    const settings = this.config.current().config.gateway.state;
    if (settings.backend === 'postgres') {
      const store = await this.backends.postgres(settings.url);
      this.logger.log(`sessions_send exchanges are stored in PostgreSQL at ${this.backends.describe(settings.url)}`);
      this.shared = store;
      this.chosen = store;
    } else this.chosen = this.backends.sqlite();
    return this.chosen;
  }
}
