import { snapshotFrom } from '../support/config-snapshot';
import { budgetImpact } from '../../src/modules/config-plan/budget-impact';
import type { ConfigPlan, PlanImpact } from '../../src/modules/config-plan';
import { formatPlan } from '../../src/cli/plan-report';

/** A plan whose only change is `budgets`, the other impact sections empty. */
function planOf(budgets: PlanImpact['budgets']): ConfigPlan {
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
