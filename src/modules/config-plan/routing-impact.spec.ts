import { snapshotFrom } from '../../../test/support/config-snapshot';
import { routingImpact } from './routing-impact';

const AGENTS = { list: [{ id: 'main' }, { id: 'support' }, { id: 'sales' }] };
const config = async (bindings: unknown[], extra: Record<string, unknown> = {}) =>
  (await snapshotFrom({ agents: AGENTS, bindings, ...extra })).config;

describe('routingImpact', () => {
  it('probes each binding of either side and the default route, marking what another agent or tier now answers', async () => {
    const before = await config([
      { agentId: 'support', match: { channel: 'http', accountId: '*' } },
      { agentId: 'sales', match: { channel: 'http', guildId: 'g1' } },
    ]);
    const after = await config([{ agentId: 'sales', match: { channel: 'http', teamId: 't1' } }]);
    expect(routingImpact(before, after)).toEqual([
      {
        probe: 'binding',
        inbound: { channel: 'http' },
        before: { agentId: 'support', matchedBy: { tier: 'accountId:*', bindingIndex: 0 } },
        after: { agentId: 'main', matchedBy: { tier: 'default', bindingIndex: null } },
        changed: true,
      },
      {
        probe: 'binding',
        inbound: { channel: 'http', guildId: 'g1' },
        before: { agentId: 'sales', matchedBy: { tier: 'guildId', bindingIndex: 1 } },
        after: { agentId: 'main', matchedBy: { tier: 'default', bindingIndex: null } },
        changed: true,
      },
      {
        probe: 'binding',
        inbound: { channel: 'http', teamId: 't1' },
        before: { agentId: 'support', matchedBy: { tier: 'accountId:*', bindingIndex: 0 } },
        after: { agentId: 'sales', matchedBy: { tier: 'teamId', bindingIndex: 0 } },
        changed: true,
      },
      {
        probe: 'default',
        inbound: null,
        before: { agentId: 'main', matchedBy: { tier: 'default', bindingIndex: null } },
        after: { agentId: 'main', matchedBy: { tier: 'default', bindingIndex: null } },
        changed: false,
      },
    ]);
  });

  it('a binding that only moved in the list is not a change; a new default agent is', async () => {
    const binding = { agentId: 'support', match: { channel: 'http', accountId: 'web' } };
    const before = await config([binding]);
    const after = await config([{ agentId: 'sales', match: { channel: 'slack' } }, binding], {
      agents: { list: [{ id: 'main' }, { id: 'support' }, { id: 'sales', default: true }] },
    });
    const entries = routingImpact(before, after);
    expect(entries[0]).toMatchObject({
      inbound: { channel: 'http', accountId: 'web' },
      after: { matchedBy: { bindingIndex: 1 } },
      changed: false,
    });
    expect(entries.at(-1)).toEqual({
      probe: 'default',
      inbound: null,
      before: { agentId: 'main', matchedBy: { tier: 'default', bindingIndex: null } },
      after: { agentId: 'sales', matchedBy: { tier: 'default', bindingIndex: null } },
      changed: true,
    });
  });
});
