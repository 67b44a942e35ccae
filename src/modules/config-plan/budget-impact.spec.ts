import { snapshotFrom } from '../../../test/support/config-snapshot';
import { budgetImpact } from './budget-impact';

const BASE = {
  agents: { list: [{ id: 'main' }, { id: 'support-eu' }, { id: 'support-us' }] },
  channels: {
    a2a: { enabled: true, peers: { hermes: { token: 'hermes-token-1' }, athena: { token: 'athena-token-1' } } },
    http: { enabled: true, accounts: { desk: { token: 'desk-token-12345' } } },
  },
  gateway: {
    http: {
      endpoints: {
        chatCompletions: { enabled: true, keys: [{ name: 'ci', token: 'sk-ci-0123456789abcdef', agents: ['*'] }] },
        mcp: { enabled: true, keys: [{ name: 'ide', token: 'sk-ide-0123456789abcdef', agents: ['*'] }] },
      },
    },
  },
};
const config = async (budgets: unknown[], extra: Record<string, unknown> = {}) =>
  (await snapshotFrom({ ...BASE, ...extra, budgets })).config;

describe('budgetImpact', () => {
  it('names budgets added, removed and changed, with what each applies to, and the budgets each target gains or loses', async () => {
    const before = await config([
      { name: 'support', agent: 'support-*', tokens: 1000, window: 'day' },
      { name: 'partners', peer: '*', cost: 5, window: 'month' },
      { name: 'desk', account: 'desk', tokens: 50, window: '3h' },
      { name: 'per-session', session: 'agent:main:*', tokens: 10, window: 'run' },
    ]);
    const after = await config([
      { name: 'support', agent: 'support-eu', tokens: 2000, window: 'day', softAt: 0.8 },
      { name: 'partners', peer: '*', cost: 5, window: 'month' },
      { name: 'keys', key: '*', tokens: 300, window: '24h' },
      { name: 'per-session', session: 'agent:main:*', tokens: 10, window: 'run' },
    ]);
    const impact = budgetImpact(before, after);
    expect(impact.added).toEqual([
      { name: 'keys', scope: 'key', pattern: '*', tokens: 300, cost: null, window: '24h', softAt: null, appliesTo: ['ci', 'ide'] },
    ]);
    expect(impact.removed).toEqual([
      { name: 'desk', scope: 'account', pattern: 'desk', tokens: 50, cost: null, window: '3h', softAt: null, appliesTo: ['desk'] },
    ]);
    expect(impact.changed).toEqual([
      {
        name: 'support',
        before: expect.objectContaining({ pattern: 'support-*', tokens: 1000, appliesTo: ['support-eu', 'support-us'] }),
        after: expect.objectContaining({ pattern: 'support-eu', tokens: 2000, softAt: 0.8, appliesTo: ['support-eu'] }),
        keys: ['pattern', 'tokens', 'softAt'],
        appliesToAdded: [],
        appliesToRemoved: ['support-us'],
      },
    ]);
    expect(impact.targets).toEqual([
      { scope: 'agent', id: 'support-eu', gained: [], lost: [], changed: ['support'] },
      { scope: 'agent', id: 'support-us', gained: [], lost: ['support'], changed: [] },
      { scope: 'key', id: 'ci', gained: ['keys'], lost: [], changed: [] },
      { scope: 'key', id: 'ide', gained: ['keys'], lost: [], changed: [] },
      { scope: 'account', id: 'desk', gained: [], lost: ['desk'], changed: [] },
    ]);
    expect(JSON.stringify(impact)).not.toMatch(/token-|sk-/);
  });

  it('shows a budget reaching a new agent or peer although its settings stay, and a move to another scope', async () => {
    const budgets = [
      { name: 'all-agents', agent: '*', tokens: 100, window: 'run' },
      { name: 'moved', agent: 'main', tokens: 100, window: 'day' },
    ];
    const before = await config(budgets);
    const after = await config([budgets[0], { name: 'moved', peer: 'hermes', tokens: 100, window: 'day' }], {
      agents: { list: [...BASE.agents.list, { id: 'sales' }] },
    });
    const impact = budgetImpact(before, after);
    expect([impact.added, impact.removed]).toEqual([[], []]);
    expect(impact.changed.map((c) => [c.name, c.keys, c.appliesToAdded, c.appliesToRemoved])).toEqual([
      ['all-agents', [], ['sales'], []],
      ['moved', ['scope', 'pattern'], ['hermes'], ['main']],
    ]);
    expect(impact.targets).toEqual([
      { scope: 'agent', id: 'main', gained: [], lost: ['moved'], changed: [] },
      { scope: 'agent', id: 'sales', gained: ['all-agents'], lost: [], changed: [] },
      { scope: 'peer', id: 'hermes', gained: ['moved'], lost: [], changed: [] },
    ]);
  });

  /**
   * A candidate differing from BASE_BUDGET in one setting, per setting of the normalized budget: a setting added to
   * `BudgetSettings` fails this test until it has a row here, and the row fails until the plan shows the change.
   */
  const BASE_BUDGET = { name: 'b', agent: 'main', tokens: 10, cost: 1, window: 'day', softAt: 0.5 };
  const BUDGET_CHANGES: Record<string, Record<string, unknown>> = {
    name: { name: 'c' },
    scope: { agent: undefined, peer: 'main' },
    pattern: { agent: 'support-*' },
    tokens: { tokens: 11 },
    cost: { cost: 2 },
    window: { window: '5h' },
    softAt: { softAt: 0.6 },
  };

  it('shows a change of every setting of a budget', async () => {
    const before = await config([BASE_BUDGET]);
    expect(Object.keys(before.budgets[0]).filter((key) => !(key in BUDGET_CHANGES))).toEqual([]);
    const hidden: string[] = [];
    for (const [key, change] of Object.entries(BUDGET_CHANGES)) {
      const impact = budgetImpact(before, await config([{ ...BASE_BUDGET, ...change }]));
      if (!impact.added.length && !impact.changed.some((c) => c.keys.length)) hidden.push(key);
    }
    expect(hidden).toEqual([]);
  });

  it('is empty when the budgets and what they reach stay', async () => {
    const before = await config([{ name: 'b', agent: '*', cost: 1, window: 'month' }]);
    expect(budgetImpact(before, before)).toEqual({ added: [], removed: [], changed: [], targets: [] });
  });
});
