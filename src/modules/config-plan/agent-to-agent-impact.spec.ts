import type { RuntimeSnapshot } from '../config';
import { snapshotFrom } from '../../../test/support/config-snapshot';
import { PolicyCheckService } from '../session-policy/policy-check.service';
import { SessionAccessPolicy } from '../session-policy/session-access-policy.service';
import { agentToAgentImpact } from './agent-to-agent-impact';

const snapshot = (tools: Record<string, unknown>, agents: unknown[] = [{ id: 'main' }, { id: 'support' }, { id: 'expert' }]) =>
  snapshotFrom({ agents: { list: agents }, tools: { sessions: { visibility: 'all' }, ...tools } });

/** The evaluator of /admin/policy/check; the session store is asked only about spawn ancestry, which cross-agent checks never need. */
function realCheck(current: RuntimeSnapshot) {
  const store = { current: () => current } as never;
  const policy = new PolicyCheckService(store, new SessionAccessPolicy(store, { isSpawnedBy: () => Promise.resolve(false) }));
  return (s: RuntimeSnapshot, from: string, to: string) => policy.checkIn(s, { from, to });
}

describe('agentToAgentImpact', () => {
  it('lists only the pairs whose outcome changes, with the layer and rule of each side', async () => {
    const before = await snapshot({ agentToAgent: { enabled: true, allow: ['main', 'support', 'expert'] } });
    const after = await snapshot({ agentToAgent: { enabled: true, allow: ['main', 'support'] } });
    const entries = await agentToAgentImpact(before, after, realCheck(before));
    expect(entries.map((e) => `${e.from}->${e.to}`)).toEqual(['main->expert', 'support->expert', 'expert->main', 'expert->support']);
    expect(entries[0]).toEqual({
      from: 'main',
      to: 'expert',
      before: { allowed: true, layer: null, rule: expect.stringContaining('visibility=all; tools.agentToAgent.allow') },
      after: { allowed: false, layer: 'policy', rule: 'tools.agentToAgent.allow: no pattern matches "expert"' },
    });
  });

  it('a refusal moving from one layer to another is a change; the same refusal is not', async () => {
    const off = await snapshot({ agentToAgent: { enabled: false } });
    const tree = await snapshot({ agentToAgent: { enabled: false }, sessions: { visibility: 'tree' } });
    const entries = await agentToAgentImpact(off, tree, realCheck(off));
    expect(entries).toHaveLength(6);
    expect(entries[0].before).toMatchObject({ allowed: false, layer: 'policy' });
    expect(entries[0].after).toMatchObject({ allowed: false, layer: 'visibility' });
    expect(await agentToAgentImpact(off, off, realCheck(off))).toEqual([]);
  });

  it('compares only agents configured on both sides', async () => {
    const before = await snapshot({ agentToAgent: { enabled: true } });
    const after = await snapshot({ agentToAgent: { enabled: false } }, [{ id: 'main' }, { id: 'support' }, { id: 'newbie' }]);
    const entries = await agentToAgentImpact(before, after, realCheck(before));
    expect(entries.map((e) => `${e.from}->${e.to}`)).toEqual(['main->support', 'support->main']);
  });
});
