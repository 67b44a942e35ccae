import type { UsageRow, UsageStore } from '../../src/modules/usage/usage-store.port';

/** Storage for one test: opening it again is another process (a restart, or another replica when shared). */
export interface UsageStoreFixture {
  open(): Promise<UsageStore>;
  /** Closes what is still open and removes the storage. */
  dispose(): Promise<void>;
}

const HOUR = 3_600_000;
/** 2026-01-01T00:00:00Z */
const T0 = Date.UTC(2026, 0, 1);

function row(over: Partial<UsageRow> = {}): UsageRow {
  return {
    at: T0,
    agentId: 'main',
    sessionKey: 'agent:main:a2a:direct:hermes',
    runId: 'run-1',
    model: 'up/priced',
    provider: 'up',
    channel: 'a2a',
    caller: 'hermes',
    inputTokens: 100,
    outputTokens: 20,
    cachedTokens: 40,
    cost: 0.25,
    ...over,
  };
}

const ALL = { from: T0 - 10 * 24 * HOUR, to: T0 + 10 * 24 * HOUR, limit: 100, offset: 0 };

/**
 * What every UsageStore does, run on each implementation (SQLite in `npm test`, PostgreSQL in the system tier).
 */
export function describeUsageStoreContract(name: string, createFixture: () => Promise<UsageStoreFixture>): void {
  describe(`UsageStore contract: ${name}`, () => {
    let fixture: UsageStoreFixture;
    let store: UsageStore;

    beforeEach(async () => {
      fixture = await createFixture();
      store = await fixture.open();
    });
    afterEach(async () => {
      await store.close();
      await fixture.dispose();
    });

    it('an empty store has no groups', async () => {
      expect(await store.groups({ ...ALL, groupBy: 'agent' })).toEqual([]);
    });

    it('a read sees every row appended before it, summed per group; cost sums the priced calls, null when none is', async () => {
      store.append(row());
      store.append(row({ runId: 'run-2', inputTokens: 10, outputTokens: 2, cachedTokens: 0, cost: 0.5 }));
      store.append(row({ agentId: 'free', model: 'up/free', cost: null }));
      store.append(row({ agentId: 'mixed', cost: 1.5 }));
      store.append(row({ agentId: 'mixed', model: 'up/free', cost: null }));
      expect(await store.groups({ ...ALL, groupBy: 'agent' })).toEqual([
        { group: 'free', calls: 1, inputTokens: 100, outputTokens: 20, cachedTokens: 40, cost: null, unpricedCalls: 1 },
        { group: 'main', calls: 2, inputTokens: 110, outputTokens: 22, cachedTokens: 40, cost: 0.75, unpricedCalls: 0 },
        { group: 'mixed', calls: 2, inputTokens: 200, outputTokens: 40, cachedTokens: 80, cost: 1.5, unpricedCalls: 1 },
      ]);
    });

    it('groups by peer, key, account, session and model, each taking only the rows of its kind of caller', async () => {
      store.append(row({ channel: 'a2a', caller: 'hermes' }));
      store.append(row({ channel: 'openai', caller: 'desk' }));
      store.append(row({ channel: 'mcp', caller: 'desk' }));
      store.append(row({ channel: 'http', caller: 'acct1', sessionKey: 'agent:main:http:direct:u1' }));
      store.append(row({ channel: 'telegram', caller: 'default', model: 'up/other' }));
      store.append(row({ channel: 'agent', caller: 'agent:main:main' }));
      store.append(row({ channel: 'internal', caller: null }));
      const groups = async (groupBy: 'peer' | 'key' | 'account' | 'session' | 'model') =>
        (await store.groups({ ...ALL, groupBy })).map((g) => [g.group, g.calls]);
      expect(await groups('peer')).toEqual([['hermes', 1]]);
      expect(await groups('key')).toEqual([
        ['mcp:desk', 1],
        ['openai:desk', 1],
      ]);
      expect(await groups('account')).toEqual([
        ['http:acct1', 1],
        ['telegram:default', 1],
      ]);
      expect(await groups('session')).toEqual([
        ['agent:main:a2a:direct:hermes', 6],
        ['agent:main:http:direct:u1', 1],
      ]);
      expect(await groups('model')).toEqual([
        ['up/other', 1],
        ['up/priced', 6],
      ]);
    });

    it('counts [from, to) only, splits per hour or day (UTC) and pages in a stable order', async () => {
      store.append(row({ at: T0 }));
      store.append(row({ at: T0 + HOUR - 1 }));
      store.append(row({ at: T0 + HOUR, agentId: 'b' }));
      store.append(row({ at: T0 + 25 * HOUR }));
      const hours = await store.groups({ ...ALL, groupBy: 'agent', bucket: 'hour' });
      expect(hours.map((g) => [g.bucket, g.group, g.calls])).toEqual([
        [T0, 'main', 2],
        [T0 + HOUR, 'b', 1],
        [T0 + 25 * HOUR, 'main', 1],
      ]);
      const days = await store.groups({ ...ALL, groupBy: 'agent', bucket: 'day' });
      expect(days.map((g) => [g.bucket, g.group, g.calls])).toEqual([
        [T0, 'b', 1],
        [T0, 'main', 2],
        [T0 + 24 * HOUR, 'main', 1],
      ]);
      const window = await store.groups({ ...ALL, groupBy: 'agent', from: T0 + 1, to: T0 + HOUR });
      expect(window.map((g) => [g.group, g.calls])).toEqual([['main', 1]]);
      const second = await store.groups({ ...ALL, groupBy: 'agent', bucket: 'hour', limit: 1, offset: 1 });
      expect(second.map((g) => [g.bucket, g.group])).toEqual([[T0 + HOUR, 'b']]);
    });

    it('adds up the rows a budget counts: one id of one column since a time, the caller on the given channels only', async () => {
      expect(await store.spent({ column: 'agent_id', value: 'main', from: 0 })).toEqual({ tokens: 0, cost: 0 });
      store.append(row({ at: T0 - 1 }));
      store.append(row({ at: T0 + 5, cost: null }));
      store.append(row({ at: T0 + 9, runId: 'run-2' }));
      store.append(row({ at: T0 + 9, agentId: 'other', channel: 'openai', caller: 'hermes' }));
      expect(await store.spent({ column: 'agent_id', value: 'main', from: T0 })).toEqual({ tokens: 240, cost: 0.25, oldest: T0 + 5 });
      expect(await store.spent({ column: 'run_id', value: 'run-2', from: 0 })).toEqual({ tokens: 120, cost: 0.25, oldest: T0 + 9 });
      expect(await store.spent({ column: 'caller', value: 'hermes', channels: ['a2a'], from: 0 })).toEqual({
        tokens: 360,
        cost: 0.5,
        oldest: T0 - 1,
      });
      expect(await store.spent({ column: 'caller', value: 'hermes', channels: ['openai', 'mcp'], from: 0 })).toMatchObject({ tokens: 120 });
    });

    it("adds up a row's origin columns: the work that started at a run, agent, session or caller, wherever it was made", async () => {
      const origin = { runId: 'run-root', agentId: 'a', sessionKey: 'agent:a:main', channel: 'a2a', caller: 'hermes' };
      store.append(row({ agentId: 'b', runId: 'run-b', channel: 'agent', caller: 'agent:a:main', origin }));
      store.append(row({ agentId: 'c', runId: 'run-c', channel: 'agent', caller: 'agent:b:main', origin, cost: null }));
      store.append(row({ agentId: 'a', runId: 'run-a2', origin: { ...origin, runId: 'run-a2', channel: 'openai' } }));
      // A row written before origins were recorded counts for no origin.
      store.append(row({ agentId: 'a' }));
      expect(await store.spent({ column: 'run_id', value: 'run-root', from: 0, origin: true })).toEqual({
        tokens: 240,
        cost: 0.25,
        oldest: T0,
      });
      expect(await store.spent({ column: 'agent_id', value: 'a', from: 0, origin: true })).toMatchObject({ tokens: 360 });
      expect(await store.spent({ column: 'session_key', value: 'agent:a:main', from: T0 + 1, origin: true })).toEqual({
        tokens: 0,
        cost: 0,
      });
      expect(await store.spent({ column: 'caller', value: 'hermes', channels: ['a2a'], from: 0, origin: true })).toMatchObject({
        tokens: 240,
      });
      expect(await store.spent({ column: 'agent_id', value: 'a', from: 0 })).toMatchObject({ tokens: 240 });
    });

    it('sums the spend per channel, caller and agent over [from, to), leaving out rows without a caller', async () => {
      store.append(row({ channel: 'a2a', caller: 'hermes', agentId: 'main' }));
      store.append(row({ channel: 'a2a', caller: 'hermes', agentId: 'main', inputTokens: 1, outputTokens: 2, cost: null }));
      store.append(row({ channel: 'a2a', caller: 'hermes', agentId: 'ops', cost: null }));
      store.append(row({ channel: 'agent', caller: 'agent:main:main', agentId: 'ops', inputTokens: 7, outputTokens: 3, cost: 0.5 }));
      store.append(row({ channel: 'http', caller: 'acct1', agentId: 'main', at: T0 + HOUR }));
      store.append(row({ channel: 'internal', caller: null }));
      expect(await store.routeSpend(T0, T0 + HOUR)).toEqual([
        { channel: 'a2a', caller: 'hermes', agentId: 'main', calls: 2, inputTokens: 101, outputTokens: 22, cost: 0.25 },
        { channel: 'a2a', caller: 'hermes', agentId: 'ops', calls: 1, inputTokens: 100, outputTokens: 20, cost: null },
        { channel: 'agent', caller: 'agent:main:main', agentId: 'ops', calls: 1, inputTokens: 7, outputTokens: 3, cost: 0.5 },
      ]);
      expect(await store.routeSpend(T0 + HOUR, T0 + 2 * HOUR)).toEqual([
        { channel: 'http', caller: 'acct1', agentId: 'main', calls: 1, inputTokens: 100, outputTokens: 20, cost: 0.25 },
      ]);
    });

    it('writes a large batch of one turn whole, and keeps it across a reopen', async () => {
      for (let i = 0; i < 500; i++) store.append(row({ runId: `run-${i}`, inputTokens: i }));
      await store.flush();
      await store.close();
      store = await fixture.open();
      expect(await store.groups({ ...ALL, groupBy: 'agent' })).toEqual([
        expect.objectContaining({ group: 'main', calls: 500, inputTokens: (499 * 500) / 2, cost: 125 }),
      ]);
    });
  });
}
