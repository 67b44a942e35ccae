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

  it('lists a pair with an agent added or removed when it is allowed where both agents exist', async () => {
    const before = await snapshot({ agentToAgent: { enabled: true } });
    const after = await snapshot({ agentToAgent: { enabled: false } }, [{ id: 'main' }, { id: 'support' }, { id: 'newbie' }]);
    const entries = await agentToAgentImpact(before, after, realCheck(before));
    // expert is removed: its pairs were allowed, so they vanish; newbie is refused everything, so nothing appears.
    expect(entries.map((e) => `${e.from}->${e.to}`)).toEqual([
      'main->support',
      'main->expert',
      'support->main',
      'support->expert',
      'expert->main',
      'expert->support',
    ]);
    expect(entries[1]).toEqual({ from: 'main', to: 'expert', before: expect.objectContaining({ allowed: true }), after: null });
    const opened = await snapshot({ agentToAgent: { enabled: true } }, [{ id: 'main' }, { id: 'newbie' }]);
    const appeared = await agentToAgentImpact(
      await snapshot({ agentToAgent: { enabled: true } }, [{ id: 'main' }]),
      opened,
      realCheck(opened),
    );
    expect(appeared).toEqual([
      { from: 'main', to: 'newbie', before: null, after: expect.objectContaining({ allowed: true }) },
      { from: 'newbie', to: 'main', before: null, after: expect.objectContaining({ allowed: true }) },
    ]);
  });
});
