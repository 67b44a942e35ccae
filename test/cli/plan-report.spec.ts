import { snapshotFrom } from '../support/config-snapshot';
import { budgetImpact } from '../../src/modules/config-plan/budget-impact';
import { approvalImpact } from '../../src/modules/config-plan/approval-impact';
import type { ConfigPlan, PlanImpact } from '../../src/modules/config-plan';
import { formatPlan } from '../../src/cli/plan-report';

/** A plan whose only changes are `budgets` and `approvals`, the other impact sections empty. */
function planOf(budgets: PlanImpact['budgets'], approvals: PlanImpact['approvals'] = []): ConfigPlan {
  return {
    valid: true,
    revision: 'aaaaaaaaaaaa',
    candidateRevision: 'bbbbbbbbbbbb',
    errors: [],
    warnings: [],
    diff: '',
    pendingRestart: [],
    impact: {
      agents: { added: [], removed: [] },
      routing: [],
      agentToAgent: [],
      memory: { grantsAdded: [], grantsRemoved: [] },
      a2a: { peersAdded: [], peersRemoved: [], tokensRotated: [], exposedAgents: null, limits: [] },
      admin: {
        tokensAdded: [],
        tokensRemoved: [],
        tokensChanged: [],
        ssoRoleMappingsAdded: [],
        ssoRoleMappingsRemoved: [],
        ssoRoleMappingsChanged: [],
        sso: [],
      },
      plugins: { stateChanged: [], configChanged: [] },
      mcp: { serversAdded: [], serversRemoved: [], serversChanged: [], agents: [] },
      budgets,
      approvals,
    },
  };
}

describe('formatPlan: budgets', () => {
  const config = async (budgets: unknown[]) =>
    (
      await snapshotFrom({
        agents: { list: [{ id: 'main' }] },
        channels: { a2a: { enabled: true, peers: { hermes: { token: 'hermes-token-1' } } }, http: { enabled: true, accounts: {} } },
        budgets,
      })
    ).config;

  it('prints each budget removed with what it was, a rolling window in hours, and a pattern nothing matches', async () => {
    const before = await config([{ name: 'partners', peer: '*', cost: 2.5, tokens: 900, window: '6h' }]);
    const after = await config([{ name: 'desks', account: 'desk-*', tokens: 50, window: 'month' }]);
    const text = formatPlan(planOf(budgetImpact(before, after)));
    expect(text).toContain(
      'budgets:\n' +
        '  + desks: 50 tokens per month for account desk-* (nothing configured matches)\n' +
        '  - partners: was 900 tokens, 2.5 cost per 6 h for peer * (hermes)\n' +
        '  peer hermes: loses partners\n',
    );
  });

  it('says no change when the budgets stay', async () => {
    const same = await config([{ name: 'b', agent: 'main', tokens: 1, window: 'run' }]);
    expect(formatPlan(planOf(budgetImpact(same, same)))).toContain('budgets: no change\n');
  });
});

describe('formatPlan and approvalImpact: tool approvals', () => {
  const snapshot = (agents: unknown) => snapshotFrom({ agents });
  const noBudgets = { added: [], removed: [], changed: [], targets: [] };

  it('names the agents whose calls start or stop waiting for an operator, and a new timeout', async () => {
    const before = await snapshot({
      defaults: { tools: { requiresApproval: ['a2a_send'] } },
      list: [{ id: 'main' }, { id: 'ops', tools: { requiresApproval: ['mcp:files:*'] } }, { id: 'quiet', tools: { requiresApproval: [] } }],
    });
    const after = await snapshot({
      defaults: { tools: { requiresApproval: ['a2a_send'], approvalTimeoutMs: 60000 } },
      list: [
        { id: 'main' },
        { id: 'ops', tools: { requiresApproval: ['group:memory'], approvalTimeoutMs: 600000 } },
        { id: 'quiet', tools: { requiresApproval: [] } },
        { id: 'fresh' },
      ],
    });
    const impact = approvalImpact(before, after);
    expect(impact).toEqual([
      { agentId: 'main', gained: [], lost: [], timeoutMs: { before: 600000, after: 60000 } },
      { agentId: 'ops', gained: ['memory_search', 'memory_get'], lost: ['mcp:files:*'] },
      { agentId: 'fresh', gained: ['a2a_send'], lost: [] },
    ]);
    expect(formatPlan(planOf(noBudgets, impact))).toContain(
      'approvals:\n' +
        '  main waits 60000 ms (was 600000)\n' +
        '  ops asks an operator before memory_search, memory_get; ops no longer asks before mcp:files:*\n' +
        '  fresh asks an operator before a2a_send\n',
    );
  });

  it('says no change when nothing about approvals changes', async () => {
    const same = await snapshot({ list: [{ id: 'main', tools: { requiresApproval: ['a2a_send'] } }] });
    expect(approvalImpact(same, same)).toEqual([]);
    expect(formatPlan(planOf(noBudgets, []))).toContain('approvals: no change');
  });
});
