import { Client } from 'pg';
import type { ClusterService } from '../../src/modules/cluster';
import { OWNER_MISSING_CONFIRM_MS } from '../../src/modules/cluster';
import type { ExchangeRecord } from '../../src/modules/session-tools/exchange-record';
import { OrphanedExchangeSweeper } from '../../src/modules/session-tools/orphaned-exchange-sweeper';
import { PgExchangeStore, type PgExchangeStoreOptions } from '../../src/modules/session-tools/pg-exchange.store';
import { describeExchangeStoreContract, exchangeOf } from '../support/exchange-store-contract';
import { postgresForSuite } from './support/postgres';

jest.setTimeout(60_000);

const postgres = postgresForSuite('exchanges');

describeExchangeStoreContract('PostgreSQL', { shared: true }, async () => {
  const url = await postgres.freshDatabase();
  const opened: PgExchangeStore[] = [];
  let starts = 0;
  return {
    open: async ({ keep = () => 100, onInterrupted, process = 'a' } = {}) => {
      // A process's replica id is new at each start; its state dir is the same across its restarts.
      const store = await PgExchangeStore.open(url, {
        keep,
        onInterrupted,
        owner: `${process}-${++starts}`,
        stateDir: `host:/state/${process}`,
        leased: () => true,
      });
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close().catch(() => undefined);
    },
  };
});

/** An exchange whose round one is still running. */
const running = (n: number): ExchangeRecord =>
  exchangeOf(n, { state: 'running', roundOne: { runId: `r${n}`, sessionKey: 'agent:expert:main', status: 'running' } });

describe('PgExchangeStore (PostgreSQL only)', () => {
  const options = (owner: string, leased = true): PgExchangeStoreOptions => ({
    keep: () => 100,
    owner,
    stateDir: `host:/state/${owner}`,
    leased: () => leased,
  });

  it('marks interrupted only the running exchanges of a leased replica whose lease is gone, confirmed across checks, once', async () => {
    const url = await postgres.freshDatabase();
    const [dead, live, alone, self] = await Promise.all([
      PgExchangeStore.open(url, options('dead')),
      PgExchangeStore.open(url, options('live')),
      PgExchangeStore.open(url, options('alone', false)),
      PgExchangeStore.open(url, options('self')),
    ]);
    const sweepers: OrphanedExchangeSweeper[] = [];
    try {
      await dead.save(() => running(1));
      await dead.save(() => exchangeOf(2));
      await live.save(() => running(3));
      await alone.save(() => running(4));
      await self.save(() => running(5));
      expect(await self.runningByOwner()).toEqual([
        { owner: 'alone', leased: false, exchanges: 1 },
        { owner: 'dead', leased: true, exchanges: 1 },
        { owner: 'live', leased: true, exchanges: 1 },
        { owner: 'self', leased: true, exchanges: 1 },
      ]);
      // Two replicas sweep at once (`self` and `other`), over a cluster in which `dead` and `alone` hold no lease.
      const cluster = (replicaId: string) =>
        ({
          mode: 'cluster',
          replicaId,
          liveOwners: async (ids: readonly string[]) => new Set(ids.filter((id) => ['live', 'self', 'other'].includes(id))),
        }) satisfies Pick<ClusterService, 'mode' | 'replicaId' | 'liveOwners'>;
      for (const id of ['self', 'other']) sweepers.push(new OrphanedExchangeSweeper({ ownedExchanges: () => self }, cluster(id)));
      // Found missing once: not yet (a Redis restarted empty looks like this until the next heartbeats).
      expect(await Promise.all(sweepers.map((s) => s.sweep()))).toEqual([0, 0]);
      expect((await self.find('r1'))?.state).toBe('running');
      await new Promise((r) => setTimeout(r, OWNER_MISSING_CONFIRM_MS + 100));
      const marked = await Promise.all(sweepers.map((s) => s.sweep()));
      expect(marked.sort()).toEqual([0, 1]);
      expect(await self.find('r1')).toMatchObject({ state: 'interrupted', roundOne: { status: 'failed' } });
      expect((await self.find('r2'))?.state).toBe('finished');
      for (const id of ['r3', 'r4', 'r5']) expect((await self.find(id))?.state).toBe('running');
      // The dead replica's late write (it was only cut off) does not undo the verdict.
      await dead.save(() => ({ ...running(1), state: 'finished' }));
      expect((await live.find('r1'))?.state).toBe('interrupted');
    } finally {
      for (const sweeper of sweepers) await sweeper.onModuleDestroy();
      for (const store of [dead, live, alone, self]) await store.close();
    }
  });

  it('sweeps nothing without gateway.cluster', async () => {
    const url = await postgres.freshDatabase();
    const store = await PgExchangeStore.open(url, options('dead'));
    try {
      await store.save(() => running(1));
      const sweeper = new OrphanedExchangeSweeper(
        { ownedExchanges: () => store },
        { mode: 'single', replicaId: 'self', liveOwners: () => Promise.reject(new Error('liveOwners needs gateway.cluster')) },
      );
      expect(await sweeper.sweep()).toBe(0);
      expect((await store.find('r1'))?.state).toBe('running');
    } finally {
      await store.close();
    }
  });

  it('applies its migration once when replicas start together, in its own scope', async () => {
    const url = await postgres.freshDatabase();
    const stores = await Promise.all(['a', 'b', 'c'].map((o) => PgExchangeStore.open(url, options(o))));
    for (const store of stores) await store.close();
    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      const rows = (await db.query('SELECT scope, version FROM schema_migrations')).rows;
      expect(rows).toEqual([{ scope: 'session-tools-exchanges', version: 1 }]);
    } finally {
      await db.end();
    }
  });

  it('names the server, never the password, when it cannot start', async () => {
    const closed = `postgres://clawgate:do-not-print-me@127.0.0.1:${postgres.server.port + 1}/nowhere`;
    await expect(PgExchangeStore.open(closed, options('x'))).rejects.toThrow(/127\.0\.0\.1:\d+\/nowhere is unreachable/);
    const wrongPassword = (await postgres.freshDatabase()).replace(/:[^:@/]+@/, ':do-not-print-me@');
    const err = await PgExchangeStore.open(wrongPassword, options('x')).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/the sessions_send exchange store could not start: PostgreSQL at 127\.0\.0\.1:\d+\/exchanges_\d+/);
    expect(err?.message).toContain('password authentication failed');
    expect(err?.message).not.toContain('do-not-print-me');
  });
});
