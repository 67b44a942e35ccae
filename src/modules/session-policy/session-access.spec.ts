import { snapshotFrom } from '../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../test/support/serving-config-store';
import type { RuntimeSnapshot, SessionVisibility } from '../config/config.types';
import type { SessionStore } from '../sessions/session-store.port';
import type { AgentToAgentSettingsInput } from './agent-to-agent-policy';
import { checkLabelLookup, checkSessionAccess, effectiveVisibility, SessionAccessConfig, isSandboxedRequester } from './session-access';
import { SessionAccessPolicy } from './session-access-policy.service';

const R = 'agent:support:main';
const CHILD = 'agent:support:subagent:c1';
const GRANDCHILD = 'agent:support:subagent:g1';
const SIBLING = 'agent:support:subagent:s1';
const PARENTS: Record<string, string> = { [CHILD]: R, [GRANDCHILD]: CHILD, [SIBLING]: 'agent:support:direct:bob' };

const isSpawnedBy = jest.fn(async (target: string, ancestor: string) => {
  for (let k = PARENTS[target]; k !== undefined; k = PARENTS[k]) if (k === ancestor) return true;
  return false;
});

function config(
  visibility: SessionVisibility,
  agentToAgent: AgentToAgentSettingsInput = { enabled: true, allow: [] },
  sandboxed: string[] = [],
): SessionAccessConfig {
  return {
    agents: ['support', 'expert'].map((id) => ({ id, sandbox: { mode: sandboxed.includes(id) ? ('all' as const) : ('off' as const) } })),
    tools: { agentToAgent, sessions: { visibility } },
  };
}

/** The same settings as a loaded snapshot, for what reads the live config. */
function snapshotWith(
  visibility: SessionVisibility,
  agentToAgent: { enabled: boolean; allow: string[] } = { enabled: true, allow: [] },
  sandboxed: string[] = [],
): Promise<RuntimeSnapshot> {
  return snapshotFrom({
    agents: { list: ['support', 'expert'].map((id) => ({ id, sandbox: { mode: sandboxed.includes(id) ? 'all' : 'off' } })) },
    tools: { agentToAgent, sessions: { visibility } },
  });
}

const check = (requesterKey: string, targetKey: string, cfg: SessionAccessConfig) =>
  checkSessionAccess({ requesterKey, targetKey, config: cfg, isSpawnedBy });

beforeEach(() => isSpawnedBy.mockClear());

describe('checkSessionAccess', () => {
  it('tree: spawned descendants are visible transitively, other sessions are not', async () => {
    const cfg = config('tree');
    expect(await check(R, GRANDCHILD, cfg)).toEqual({ allowed: true, layer: null, rule: 'visibility=tree: target spawned by requester' });
    expect(isSpawnedBy).toHaveBeenCalledWith(GRANDCHILD, R);
    expect(await check(R, SIBLING, cfg)).toEqual({
      allowed: false,
      layer: 'visibility',
      rule: 'visibility=tree: target not spawned by requester',
      message: 'Session is not visible from this session (tools.sessions.visibility=tree).',
    });
    // the tree points downwards only: a child does not see its parent
    expect((await check(CHILD, R, cfg)).allowed).toBe(false);
  });

  it('does not consult the session store when the visibility does not need it', async () => {
    await check(R, SIBLING, config('agent'));
    await check(R, 'agent:expert:main', config('all'));
    await check(R, SIBLING, config('self'));
    expect(isSpawnedBy).not.toHaveBeenCalled();
  });

  it('compares canonical (lowercase) keys, as the session store does', async () => {
    expect((await check('Agent:Support:Main', R, config('self'))).allowed).toBe(true);
    await check('AGENT:SUPPORT:MAIN', 'agent:support:subagent:C1', config('tree'));
    expect(isSpawnedBy).toHaveBeenCalledWith(CHILD, R);
  });

  it('fails closed on a malformed key, naming it in the rule', async () => {
    for (const [r, t] of [
      ['support:main', R],
      [R, 'agent:expert'],
      [R, ''],
      ['agent::main', R],
    ]) {
      const d = await check(r, t, config('all'));
      expect(d).toMatchObject({
        allowed: false,
        layer: 'visibility',
        message: 'Session is not visible from this session (tools.sessions.visibility=all).',
      });
      expect(d.rule).toMatch(/^malformed session key /);
    }
  });

  it('checks cross-agent access in layer order and explains the deciding rule', async () => {
    const target = 'agent:expert:main';
    expect(await check(R, target, config('agent', { enabled: false, allow: ['other'] }))).toMatchObject({
      layer: 'visibility',
      rule: 'visibility=agent: cross-agent sessions need visibility=all',
    });
    expect(await check(R, target, config('all', { enabled: 'true', allow: ['other'] }))).toMatchObject({
      layer: 'policy',
      message: 'Agent-to-agent messaging is disabled.',
    });
    expect(await check(R, target, config('all', { enabled: true, allow: ['sup*'] }))).toEqual({
      allowed: false,
      layer: 'policy',
      rule: 'tools.agentToAgent.allow: no pattern matches "expert"',
      message: 'Agent-to-agent messaging denied by tools.agentToAgent.allow.',
    });
    expect(await check(R, target, config('all', { enabled: true, allow: ['*', 'x'] }))).toEqual({
      allowed: true,
      layer: null,
      rule: 'visibility=all; tools.agentToAgent.allow: "*" matched both',
    });
  });

  it('applies the case rules to real ids: exact patterns are case-sensitive, globs are not', async () => {
    const target = 'agent:expert:main';
    expect((await check(R, target, config('all', { enabled: true, allow: ['Support', 'expert'] }))).allowed).toBe(false);
    expect((await check(R, target, config('all', { enabled: true, allow: ['SUP*', '*ERT'] }))).allowed).toBe(true);
  });

  it('a sandboxed requester is clamped to tree and never crosses agents; the target being sandboxed does not matter', async () => {
    const open = config('all', { enabled: true, allow: [] }, ['support']);
    expect(await check(R, 'agent:expert:main', open)).toEqual({
      allowed: false,
      layer: 'visibility',
      rule: 'sandbox clamps visibility to tree: cross-agent access is forbidden',
      message: 'Session is not visible from this session (tools.sessions.visibility=tree).',
    });
    expect(await check(R, CHILD, open)).toEqual({
      allowed: true,
      layer: null,
      rule: 'sandbox clamps visibility to tree: target spawned by requester',
    });
    expect((await check(R, SIBLING, open)).rule).toBe('sandbox clamps visibility to tree: target not spawned by requester');
    // expert is not sandboxed, so it still reaches support even though support is
    expect((await check('agent:expert:main', R, config('all', { enabled: true, allow: [] }, ['support']))).allowed).toBe(true);
  });

  it('sandbox.mode "non-main" sandboxes every session of the agent but its main one (the configured mainKey)', async () => {
    const nonMain = (mainKey?: string): SessionAccessConfig => ({
      agents: [
        { id: 'support', sandbox: { mode: 'non-main' } },
        { id: 'expert', sandbox: { mode: 'off' } },
      ],
      tools: { agentToAgent: { enabled: true, allow: [] }, sessions: { visibility: 'all' } },
      ...(mainKey ? { session: { mainKey } } : {}),
    });
    expect(isSandboxedRequester(nonMain(), R)).toBe(false);
    expect(isSandboxedRequester(nonMain(), 'agent:support:main:thread:7')).toBe(true);
    expect(isSandboxedRequester(nonMain(), 'agent:support:direct:bob')).toBe(true);
    expect(isSandboxedRequester(nonMain(), CHILD)).toBe(true);
    expect(isSandboxedRequester(nonMain('home'), R)).toBe(true);
    expect(isSandboxedRequester(nonMain('home'), 'agent:support:home')).toBe(false);
    expect(isSandboxedRequester(nonMain(), 'agent:expert:direct:bob')).toBe(false);
    // The main session crosses agents as visibility=all allows; a direct session of the same agent does not.
    expect((await check(R, 'agent:expert:main', nonMain())).allowed).toBe(true);
    expect((await check('agent:support:direct:bob', 'agent:expert:main', nonMain())).rule).toBe(
      'sandbox clamps visibility to tree: cross-agent access is forbidden',
    );
  });

  it('accepts a RuntimeSnapshot-shaped {config} as well as the config itself', async () => {
    const d = await checkSessionAccess({ requesterKey: R, targetKey: SIBLING, config: await snapshotWith('self'), isSpawnedBy });
    expect(d.allowed).toBe(false);
    expect(isSandboxedRequester(await snapshotWith('all', undefined, ['support']), R)).toBe(true);
    expect(isSandboxedRequester(config('all'), 'agent:nobody:main')).toBe(false);
  });
});

describe('effectiveVisibility', () => {
  it.each([
    ['self', false, 'self'],
    ['all', false, 'all'],
    ['self', true, 'self'],
    ['tree', true, 'tree'],
    ['agent', true, 'tree'],
    ['all', true, 'tree'],
  ] as const)('%s sandboxed=%s → %s', (configured, sandboxed, expected) => {
    expect(effectiveVisibility(configured, sandboxed)).toBe(expected);
  });
});

describe('checkLabelLookup', () => {
  it('limits a sandboxed requester to labels of its own agent', () => {
    const cfg = config('all', { enabled: true, allow: [] }, ['support']);
    expect(checkLabelLookup({ requesterKey: R, targetAgentId: 'expert', config: cfg })).toEqual({
      allowed: false,
      layer: 'visibility',
      rule: 'sandbox limits label lookup to its own agent',
      message: 'Sandboxed sessions_send label lookup is limited to this agent',
    });
    expect(checkLabelLookup({ requesterKey: R, targetAgentId: 'support', config: cfg }).allowed).toBe(true);
    expect(checkLabelLookup({ requesterKey: R, targetAgentId: 'Support', config: cfg }).allowed).toBe(true);
    expect(checkLabelLookup({ requesterKey: R, targetAgentId: 'expert', config: config('all') }).allowed).toBe(true);
  });

  it('applies the cross-agent layers to a lookup in another agent, before any label is looked up', () => {
    const lookup = (cfg: SessionAccessConfig, targetAgentId = 'expert') =>
      checkLabelLookup({ requesterKey: R, targetAgentId, config: cfg });
    expect(lookup(config('agent'))).toEqual({
      allowed: false,
      layer: 'visibility',
      rule: 'visibility=agent: cross-agent sessions need visibility=all',
      message: 'Session is not visible from this session (tools.sessions.visibility=agent).',
    });
    expect(lookup(config('all', { enabled: false }))).toMatchObject({
      allowed: false,
      layer: 'policy',
      message: 'Agent-to-agent messaging is disabled.',
    });
    expect(lookup(config('all', { enabled: true, allow: ['support'] }))).toMatchObject({
      allowed: false,
      layer: 'policy',
      message: 'Agent-to-agent messaging denied by tools.agentToAgent.allow.',
    });
    // The same answer as any session of that agent gets from checkSessionAccess; an agent that is not configured is no different.
    expect(lookup(config('all', { enabled: true, allow: ['support', 'expert'] }))).toMatchObject({ allowed: true });
    expect(lookup(config('all', { enabled: true, allow: ['support'] }), 'ghost')).toMatchObject({ allowed: false, layer: 'policy' });
    // Inside its own agent the layers do not apply (the resolved session is checked after the lookup).
    expect(lookup(config('self', { enabled: false }), 'support')).toEqual({
      allowed: true,
      layer: null,
      rule: 'label lookup in its own agent',
    });
  });
});

describe('SessionAccessPolicy (service)', () => {
  function guardWith(initial: RuntimeSnapshot) {
    const store = new ServingConfigStore(initial);
    const sessions: Pick<SessionStore, 'isSpawnedBy'> = { isSpawnedBy };
    return { guard: new SessionAccessPolicy(store, sessions), swap: (next: RuntimeSnapshot) => store.apply(next) };
  }

  it('filters a list down to the visible keys, in order', async () => {
    const { guard } = guardWith(await snapshotWith('tree'));
    const keys = [SIBLING, GRANDCHILD, 'agent:expert:main', R, CHILD];
    expect(await guard.filterVisible(R, keys)).toEqual([GRANDCHILD, R, CHILD]);
  });

  it('reads the current config on every call (hot reload)', async () => {
    const { guard, swap } = guardWith(await snapshotWith('all', { enabled: false, allow: [] }));
    expect(await guard.check(R, 'agent:expert:main')).toMatchObject({ allowed: false, message: 'Agent-to-agent messaging is disabled.' });
    swap(await snapshotWith('all', { enabled: true, allow: [] }));
    expect((await guard.check(R, 'agent:expert:main')).allowed).toBe(true);
    swap(await snapshotWith('all', { enabled: true, allow: [] }, ['support']));
    expect(guard.checkLabelLookup(R, 'expert').allowed).toBe(false);
  });
});
