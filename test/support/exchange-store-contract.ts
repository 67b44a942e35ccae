import type { ExchangeRecord } from '../../src/modules/session-tools/exchange-record';
import { STOPPED_BEFORE_END } from '../../src/modules/session-tools/exchange-record';
import type { ExchangeStore } from '../../src/modules/session-tools/exchange-store.port';

export interface ExchangeStoreOpenOptions {
  keep?: () => number;
  onInterrupted?: (count: number) => void;
  /**
   * Which process opens it: the same name again is that process restarted on its state dir; another name is another
   * replica (a shared store only). Default `a`.
   */
  process?: string;
}

/** Storage for one test. */
export interface ExchangeStoreFixture {
  open(options?: ExchangeStoreOpenOptions): Promise<ExchangeStore>;
  /** Closes what is still open and removes the storage. */
  dispose(): Promise<void>;
}

const at = '2026-11-29T10:00:00.000Z';
export const exchangeOf = (n: number, patch: Partial<ExchangeRecord> = {}): ExchangeRecord => ({
  runId: `r${n}`,
  chainId: `c${n}`,
  requesterSessionKey: 'agent:support:main',
  targetSessionKey: 'agent:expert:main',
  request: `question ${n}`,
  state: 'finished',
  startedAt: at,
  updatedAt: at,
  roundOne: { runId: `r${n}`, sessionKey: 'agent:expert:main', status: 'completed', reply: `answer ${n}` },
  ...patch,
});

/** An exchange in the middle of its ping-pong: round one done, a turn running. */
const running = (n: number): ExchangeRecord =>
  exchangeOf(n, {
    state: 'running',
    roundOne: { runId: `r${n}`, sessionKey: 'agent:expert:main', status: 'completed', reply: 'first' },
    pingPong: {
      maxTurns: 3,
      turns: [{ turn: 1, role: 'requester', runId: `t${n}`, sessionKey: 'agent:support:main', status: 'running' }],
    },
  });

/**
 * What every ExchangeStore does (exchange-store.port.ts), on each backend: SQLite in `npm test`
 * (src/modules/session-tools/sqlite-exchange.store.spec.ts), PostgreSQL in the system tier
 * (test/system/pg-exchange-store.system-spec.ts). The replica cases run only on a store replicas share.
 */
export function describeExchangeStoreContract(
  name: string,
  backend: { shared: boolean },
  createFixture: () => Promise<ExchangeStoreFixture>,
): void {
  describe(`ExchangeStore contract: ${name}`, () => {
    let fixture: ExchangeStoreFixture;
    let opened: ExchangeStore[];
    const open = async (options?: ExchangeStoreOpenOptions) => {
      const store = await fixture.open(options);
      opened.push(store);
      return store;
    };
    const known = (store: ExchangeStore, ids: string[]) => Promise.all(ids.map(async (id) => (await store.find(id)) !== undefined));

    beforeEach(async () => {
      fixture = await createFixture();
      opened = [];
    });
    afterEach(async () => {
      for (const store of opened) await store.close().catch(() => undefined);
      await fixture.dispose();
    });

    it('knows nothing before the first write', async () => {
      const store = await open();
      expect(await store.find('r1')).toBeUndefined();
      expect(await store.pairCounts(0)).toEqual([]);
    });

    it('finds an exchange by the id of any of its runs, with the state of the last write; a reopened store too', async () => {
      const store = await open();
      const record = exchangeOf(1, { state: 'running' });
      await store.save(() => record);
      record.pingPong = {
        maxTurns: 2,
        turns: [{ turn: 1, role: 'requester', runId: 't1', sessionKey: 'agent:support:main', status: 'completed' }],
      };
      record.announce = { status: 'delivered', step: { runId: 'a1', sessionKey: 'agent:expert:main', status: 'completed' } };
      record.state = 'finished';
      await store.save(() => record);
      for (const runId of ['r1', 't1', 'a1']) expect(await store.find(runId)).toEqual(record);
      expect(await store.find('nope')).toBeUndefined();
      await store.close();
      const reopened = await open();
      expect(await reopened.find('t1')).toEqual(record);
    });

    it('stores the state a queued save finds when its write runs: saves of one turn, the last state wins', async () => {
      const store = await open();
      const record = exchangeOf(1, { state: 'running', request: 'first' });
      const writes = [store.save(() => record), store.save(() => exchangeOf(2))];
      record.request = 'changed before the write';
      record.state = 'finished';
      writes.push(store.save(() => record));
      await Promise.all(writes);
      expect(await store.find('r1')).toMatchObject({ state: 'finished', request: 'changed before the write' });
      expect(await store.find('r2')).toEqual(exchangeOf(2));
    });

    it('keeps the newest `keep` exchanges: the oldest go first, with the ids of their runs', async () => {
      let keep = 3;
      const store = await open({ keep: () => keep });
      for (let n = 1; n <= 5; n++)
        await store.save(() =>
          exchangeOf(n, { announce: { status: 'skipped', step: { runId: `a${n}`, sessionKey: 'x', status: 'completed' } } }),
        );
      expect(await known(store, ['r1', 'r2', 'r3', 'r4', 'r5'])).toEqual([false, false, true, true, true]);
      expect(await store.find('a2')).toBeUndefined();
      expect((await store.find('a3'))?.runId).toBe('r3');
      // Updating a kept exchange does not cut; lowering the bound applies at the next new exchange.
      await store.save(() => exchangeOf(3, { request: 'edited' }));
      expect((await store.find('r3'))?.request).toBe('edited');
      keep = 1;
      await store.save(() => exchangeOf(6));
      expect(await known(store, ['r3', 'r4', 'r5', 'r6'])).toEqual([false, false, false, true]);
    });

    it('counts exchanges per requester and target agent started in a window', async () => {
      const store = await open();
      const t = (iso: string) => ({ startedAt: iso, updatedAt: iso });
      await store.save(() => exchangeOf(1, t('2026-11-29T09:00:00.000Z')));
      await store.save(() => exchangeOf(2, t('2026-11-29T10:00:00.000Z')));
      await store.save(() =>
        exchangeOf(3, { ...t('2026-11-29T10:30:00.000Z'), requesterSessionKey: 'agent:expert:main', targetSessionKey: 'agent:support:x' }),
      );
      await store.save(() => exchangeOf(4, t('2026-11-29T10:45:00.000Z')));
      expect(await store.pairCounts(Date.parse('2026-11-29T10:00:00.000Z'))).toEqual([
        { from: 'expert', to: 'support', count: 1 },
        { from: 'support', to: 'expert', count: 2 },
      ]);
      expect(await store.pairCounts(Date.parse('2026-11-29T08:00:00.000Z'))).toEqual([
        { from: 'expert', to: 'support', count: 1 },
        { from: 'support', to: 'expert', count: 3 },
      ]);
      expect(await store.pairCounts(Date.parse('2026-11-29T11:00:00.000Z'))).toEqual([]);
    });

    it('counts an exchange whose save has not resolved yet', async () => {
      const store = await open();
      const saved = store.save(() => exchangeOf(1));
      expect(await store.pairCounts(Date.parse(at))).toEqual([{ from: 'support', to: 'expert', count: 1 }]);
      await saved;
    });

    it('marks the exchanges a stopped process left running as interrupted when it opens the store again', async () => {
      const first = await open();
      await first.save(() => running(1));
      await first.save(() => exchangeOf(2));
      await first.close();

      const counted: number[] = [];
      const reopened = await open({ onInterrupted: (n) => counted.push(n) });
      expect(await reopened.find('t1')).toMatchObject({
        state: 'interrupted',
        endedAt: expect.any(String),
        roundOne: { status: 'completed', reply: 'first' },
        pingPong: { turns: [{ runId: 't1', status: 'failed', error: STOPPED_BEFORE_END }] },
      });
      expect(counted).toEqual([1]);
      expect((await reopened.find('r2'))?.state).toBe('finished');
    });

    it('never writes over an interrupted exchange: a late save of it is dropped', async () => {
      const first = await open();
      await first.save(() => running(1));
      await first.close();
      const reopened = await open();
      await reopened.save(() => ({ ...running(1), state: 'finished' }));
      expect((await reopened.find('r1'))?.state).toBe('interrupted');
    });

    it('refuses writes once closed', async () => {
      const store = await open();
      await store.close();
      await expect(store.save(() => exchangeOf(1))).rejects.toThrow('the exchange store is closed');
    });

    if (!backend.shared) return;
    describe('shared by replicas', () => {
      it('is one record for every replica: what one saves, the other finds and counts', async () => {
        const a = await open({ process: 'a' });
        const b = await open({ process: 'b' });
        await a.save(() => exchangeOf(1));
        await b.save(() => exchangeOf(2, { requesterSessionKey: 'agent:expert:main', targetSessionKey: 'agent:support:main' }));
        expect(await b.find('r1')).toEqual(exchangeOf(1));
        expect(await a.find('r2')).toMatchObject({ runId: 'r2' });
        expect(await a.pairCounts(0)).toEqual(await b.pairCounts(0));
        expect(await b.pairCounts(0)).toEqual([
          { from: 'expert', to: 'support', count: 1 },
          { from: 'support', to: 'expert', count: 1 },
        ]);
      });

      it("a replica that starts leaves another live replica's running exchanges alone", async () => {
        const a = await open({ process: 'a' });
        await a.save(() => running(1));
        const counted: number[] = [];
        const b = await open({ process: 'b', onInterrupted: (n) => counted.push(n) });
        expect((await b.find('t1'))?.state).toBe('running');
        expect(counted).toEqual([]);
        // Its own restart is what marks them.
        await a.close();
        const restarted = await open({ process: 'a', onInterrupted: (n) => counted.push(n) });
        expect((await restarted.find('t1'))?.state).toBe('interrupted');
        expect(counted).toEqual([1]);
      });

      it('keeps the newest `keep` of all replicas together', async () => {
        const a = await open({ process: 'a', keep: () => 4 });
        const b = await open({ process: 'b', keep: () => 4 });
        // Both replicas' new exchanges at once: the cut takes turns, so exactly four are left.
        await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).save(() => exchangeOf(i + 1))));
        const ids = Array.from({ length: 10 }, (_, i) => `r${i + 1}`);
        expect((await known(a, ids)).filter(Boolean)).toHaveLength(4);
        for (let n = 11; n <= 14; n++) await (n % 2 ? a : b).save(() => exchangeOf(n));
        expect(await known(b, [...ids, 'r11', 'r12', 'r13', 'r14'])).toEqual([...ids.map(() => false), true, true, true, true]);
      });
    });
  });
}
