import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ExchangeRecord, STOPPED_BEFORE_END } from './exchange-record';
import { exchangeDatabasePath, ExchangeStore } from './exchange-store';

const at = '2026-11-29T10:00:00.000Z';
const exchange = (n: number, patch: Partial<ExchangeRecord> = {}): ExchangeRecord => ({
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

describe('ExchangeStore (SQLite)', () => {
  let dir: string;
  let file: string;
  const stores: ExchangeStore[] = [];
  const open = (keep = 100, onInterrupted?: (n: number) => void) => {
    const store = new ExchangeStore(file, () => keep, onInterrupted);
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-exchanges-'));
    file = exchangeDatabasePath(dir);
  });
  afterEach(() => {
    for (const s of stores.splice(0)) s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates no file until the first write; reads before that find nothing', () => {
    expect(open().find('r1')).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });

  it('finds an exchange by the id of any of its runs, with the state of the last write', async () => {
    const store = open();
    const record = exchange(1, { state: 'running' });
    await store.save(() => record);
    record.pingPong = {
      maxTurns: 2,
      turns: [{ turn: 1, role: 'requester', runId: 't1', sessionKey: 'agent:support:main', status: 'completed' }],
    };
    record.announce = { status: 'delivered', step: { runId: 'a1', sessionKey: 'agent:expert:main', status: 'completed' } };
    record.state = 'finished';
    await store.save(() => record);
    for (const runId of ['r1', 't1', 'a1']) expect(store.find(runId)).toEqual(record);
    expect(store.find('nope')).toBeUndefined();
  });

  it('keeps the newest `keep` exchanges: the oldest go first, with the ids of their runs', async () => {
    let keep = 3;
    const store = new ExchangeStore(file, () => keep);
    stores.push(store);
    for (let n = 1; n <= 5; n++)
      await store.save(() =>
        exchange(n, { announce: { status: 'skipped', step: { runId: `a${n}`, sessionKey: 'x', status: 'completed' } } }),
      );
    expect(['r1', 'r2', 'r3', 'r4', 'r5'].map((id) => store.find(id) !== undefined)).toEqual([false, false, true, true, true]);
    expect(store.find('a2')).toBeUndefined();
    expect(store.find('a3')?.runId).toBe('r3');
    // Updating a kept exchange does not cut; lowering the bound applies at the next new exchange.
    await store.save(() => exchange(3, { request: 'edited' }));
    keep = 1;
    await store.save(() => exchange(6));
    expect(['r3', 'r4', 'r5', 'r6'].map((id) => store.find(id) !== undefined)).toEqual([false, false, false, true]);
  });

  it('marks exchanges a stopped process left running as interrupted when the store is next opened', async () => {
    const first = open();
    await first.save(() =>
      exchange(1, {
        state: 'running',
        roundOne: { runId: 'r1', sessionKey: 'agent:expert:main', status: 'completed', reply: 'first' },
        pingPong: {
          maxTurns: 3,
          turns: [{ turn: 1, role: 'requester', runId: 't1', sessionKey: 'agent:support:main', status: 'running' }],
        },
      }),
    );
    await first.save(() => exchange(2));
    first.close();

    const counted: number[] = [];
    const reopened = open(100, (n) => counted.push(n));
    const found = reopened.find('t1');
    expect(counted).toEqual([1]);
    expect(found).toMatchObject({
      state: 'interrupted',
      endedAt: expect.any(String),
      roundOne: { status: 'completed', reply: 'first' },
      pingPong: { turns: [{ runId: 't1', status: 'failed', error: STOPPED_BEFORE_END }] },
    });
    expect(reopened.find('r2')?.state).toBe('finished');
  });

  it('refuses writes once closed', async () => {
    const store = open();
    store.close();
    await expect(store.save(() => exchange(1))).rejects.toThrow('the exchange store is closed');
  });
});
