import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WorkOrigin } from '../../common/work-origin';
import type { BudgetSettings, NormalizedConfig } from '../config';
import { BudgetExhaustedError, BudgetGate } from './budget-gate';
import { SqliteUsageStore } from './sqlite-usage.store';
import type { UsageCallContext } from './usage-recorder';
import type { UsageRow } from './usage-store.port';

/**
 * The origin filter (docs/usage.md#budgets-follow-the-work), against a real SQLite usage store: a budget that matches
 * a run's origin counts the rows of the work that started there, in whichever agent, session or run they were made,
 * for a `run` window (the origin run's tree) and for a calendar or rolling one (all the work of that origin id).
 */
describe('BudgetGate: budgets follow the work', () => {
  let dir: string;
  let store: SqliteUsageStore;
  let gate: BudgetGate;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-budget-gate-'));
    store = new SqliteUsageStore(dir);
    gate = new BudgetGate(store);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const config = (...budgets: BudgetSettings[]) => ({ budgets }) as unknown as NormalizedConfig;
  const originA: WorkOrigin = { runId: 'run-a', agentId: 'a', sessionKey: 'agent:a:main', channel: 'http', caller: 'acct1' };
  const originZ: WorkOrigin = { runId: 'run-z', agentId: 'z', sessionKey: 'agent:z:main', channel: 'http', caller: 'acct9' };
  /** A run of agent `agentId` that `origin`'s work started (through sessions_send or sessions_spawn). */
  const callOf = (agentId: string, runId: string, origin: WorkOrigin): UsageCallContext => ({
    agentId,
    sessionKey: `agent:${agentId}:subagent:${runId}`,
    runId,
    channel: 'agent',
    caller: origin.sessionKey,
    origin,
  });
  const spend = (call: UsageCallContext, tokens: number, at = Date.now()) => {
    const { carried: _carried, ...origin } = call.origin!;
    const row: UsageRow = {
      at,
      agentId: call.agentId,
      sessionKey: call.sessionKey,
      runId: call.runId,
      model: 'up/m',
      provider: 'up',
      channel: call.channel,
      caller: call.caller ?? null,
      inputTokens: tokens,
      outputTokens: 0,
      cachedTokens: 0,
      cost: null,
      origin,
    };
    store.append(row);
  };
  const refusal = async (call: UsageCallContext, cfg: NormalizedConfig) => {
    const checked = gate.check(call, cfg);
    if (!checked) return undefined;
    return checked.then(
      () => undefined,
      (err: unknown) => err,
    );
  };

  it('a run window: the origin budget counts the whole tree of the origin run, not another tree', async () => {
    const perRequest: BudgetSettings = { name: 'per-request', scope: 'agent', pattern: 'a', tokens: 100, window: { kind: 'run' } };
    const rootCall: UsageCallContext = { ...originA, origin: originA };
    const child = callOf('b', 'run-b', originA);
    const grandchild = callOf('c', 'run-c', originA);
    spend(rootCall, 30);
    spend(child, 30);
    spend(grandchild, 30);
    // Another request of agent a: its own tree, not counted.
    const otherRoot: WorkOrigin = { ...originA, runId: 'run-a2' };
    spend({ ...otherRoot, origin: otherRoot }, 500);

    expect(await refusal(grandchild, config(perRequest))).toBeUndefined();
    spend(child, 10);
    for (const call of [rootCall, child, grandchild]) {
      const err = await refusal(call, config(perRequest));
      expect(err).toBeInstanceOf(BudgetExhaustedError);
      expect((err as BudgetExhaustedError).budget).toBe('per-request');
      expect((err as Error).message).toBe(
        'budget "per-request" exhausted: 100 tokens per run for agent a, where this work started, 100 used; it does not reset within this run',
      );
    }
    // The work of another origin is not held to a's budget.
    expect(await refusal(callOf('b', 'run-b9', originZ), config(perRequest))).toBeUndefined();
  });

  it('a day and a rolling window: the origin budget counts every row of work that started at that id within the window', async () => {
    const daily: BudgetSettings = { name: 'a-daily', scope: 'agent', pattern: 'a', tokens: 100, window: { kind: 'day' } };
    const rolling: BudgetSettings = {
      name: 'acct-3h',
      scope: 'account',
      pattern: 'acct1',
      tokens: 100,
      window: { kind: 'hours', hours: 3 },
    };
    const first = callOf('b', 'run-b1', originA);
    const second = callOf('c', 'run-c2', { ...originA, runId: 'run-a2' });
    spend(first, 60);
    // Rows of b for another origin count for b's own budgets only.
    spend(callOf('b', 'run-b3', originZ), 1000);
    expect(await refusal(second, config(daily))).toBeUndefined();
    expect(await refusal(second, config(rolling))).toBeUndefined();
    spend(second, 40);

    const day = await refusal(first, config(daily));
    expect((day as Error).message).toMatch(
      /^budget "a-daily" exhausted: 100 tokens per day for agent a, where this work started, 100 used; it resets at \d{4}-\d\d-\d\dT00:00:00\.000Z$/,
    );
    const hours = await refusal(first, config(rolling));
    expect((hours as Error).message).toMatch(
      /^budget "acct-3h" exhausted: 100 tokens per 3 h for account acct1, where this work started, 100 used;/,
    );

    // A rolling window lets old rows go: a call of four hours ago no longer counts, a day's does until midnight.
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-budget-gate-'));
    store = new SqliteUsageStore(dir);
    gate = new BudgetGate(store);
    const fourHoursAgo = Date.now() - 4 * 3_600_000;
    spend(first, 100, fourHoursAgo);
    expect(await refusal(second, config(rolling))).toBeUndefined();
    const sameDay = fourHoursAgo >= Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    expect(await refusal(second, config(daily))).toEqual(sameDay ? expect.any(BudgetExhaustedError) : undefined);
  });

  it("a run's own budget still counts its own rows, whatever its origin", async () => {
    const bOwn: BudgetSettings = { name: 'b-day', scope: 'agent', pattern: 'b', tokens: 50, window: { kind: 'day' } };
    spend(callOf('b', 'run-b1', originZ), 50);
    const err = await refusal(callOf('b', 'run-b2', originA), config(bOwn));
    expect((err as Error).message).toMatch(/^budget "b-day" exhausted: 50 tokens per day for agent b, 50 used;/);
  });

  it('a carried budget limits the tree of the origin run, and remaining() reports the tightest limit', async () => {
    const carried: WorkOrigin = { ...originA, channel: 'a2a', caller: 'gw-a', carried: { budget: 'upstream', peer: 'gw-a', tokens: 80 } };
    const big: BudgetSettings = { name: 'a-day', scope: 'agent', pattern: 'a', tokens: 10_000, window: { kind: 'day' } };
    const child = callOf('b', 'run-b', carried);
    spend(child, 50);
    expect(await gate.remaining(child, config(big))).toEqual({ budget: 'upstream', tokens: 30 });
    expect(await refusal(child, config())).toBeUndefined();
    spend(child, 30);
    const err = await refusal(child, config());
    expect((err as BudgetExhaustedError).budget).toBe('upstream');
    expect((err as Error).message).toBe(
      'budget "upstream" exhausted: 80 tokens for this task, as peer gw-a allowed it, 80 used; it does not reset within this run',
    );
    expect(await gate.remaining(child, config(big))).toEqual({ budget: 'upstream', tokens: 0 });
    expect(await gate.remaining(callOf('b', 'run-b', originZ), config())).toBeUndefined();
  });
});
