import { snapshotFrom } from '../../../test/support/config-snapshot';
import type { DmScope, NormalizedConfig, ResolvedBinding } from '../config/config.types';
import { bindingAt, bindingTier, InboundMessage, namesPeer, resolveRoute } from './route-resolver';

type Match = ResolvedBinding['match'];

/** The resolver reads only bindings, defaultAgentId and session; the agents are there because bindings must name real ones. */
async function config(
  bindings: Array<[agentId: string, match: Match]>,
  session: { dmScope?: DmScope; mainKey?: string } = {},
): Promise<NormalizedConfig> {
  const agentIds = new Set(['main', ...bindings.map(([agentId]) => agentId)]);
  const snapshot = await snapshotFrom({
    agents: { list: [...agentIds].map((id) => ({ id })) },
    bindings: bindings.map(([agentId, match]) => ({ agentId, match })),
    session: {
      dmScope: session.dmScope ?? 'main',
      mainKey: session.mainKey ?? 'main',
      agentToAgent: { maxPingPongTurns: 5, maxChainHops: 8 },
    },
  });
  return snapshot.config;
}

const GROUP_MSG: InboundMessage = { channel: 'discord', peer: { kind: 'group', id: 'g1' }, guildId: 'G', teamId: 'T' };

describe('resolveRoute: tiers', () => {
  // Least specific first in the file; each step adds a more specific binding that must win.
  const ladder: Array<[string, Match, string]> = [
    ['by-channel', { channel: 'discord' }, 'channel'],
    ['by-any-account', { channel: 'discord', accountId: '*' }, 'accountId:*'],
    ['by-account', { channel: 'discord', accountId: 'default' }, 'accountId'],
    ['by-team', { channel: 'discord', teamId: 'T' }, 'teamId'],
    ['by-guild', { channel: 'discord', guildId: 'G' }, 'guildId'],
    ['by-peer', { channel: 'discord', peer: { kind: 'group', id: 'g1' } }, 'peer'],
  ];

  it.each(ladder.map((step, i) => [step[2], i] as const))(
    'the %s tier beats every less specific binding listed before it',
    async (tier, i) => {
      const cfg = await config(ladder.slice(0, i + 1).map(([agent, match]) => [agent, match]));
      expect(resolveRoute(cfg, GROUP_MSG)).toEqual(
        expect.objectContaining({ agentId: ladder[i][0], matchedBy: { tier, bindingIndex: i } }),
      );
    },
  );

  it('ranks by tier, not by file order: the ladder reversed resolves the same way', async () => {
    const cfg = await config([...ladder].reverse().map(([agent, match]) => [agent, match]));
    expect(resolveRoute(cfg, GROUP_MSG).matchedBy).toEqual({ tier: 'peer', bindingIndex: 0 });
    expect(resolveRoute(cfg, { ...GROUP_MSG, peer: undefined }).matchedBy).toEqual({ tier: 'guildId', bindingIndex: 1 });
  });

  it('account tier beats "*" when the "*" binding comes first', async () => {
    const cfg = await config([
      ['any', { channel: 'http', accountId: '*' }],
      ['work', { channel: 'http', accountId: 'work' }],
    ]);
    expect(resolveRoute(cfg, { channel: 'http', accountId: 'work' })).toEqual(
      expect.objectContaining({ agentId: 'work', matchedBy: { tier: 'accountId', bindingIndex: 1 } }),
    );
    expect(resolveRoute(cfg, { channel: 'http', accountId: 'other' }).agentId).toBe('any');
  });

  it('falls back to the default agent with tier "default" and no binding', async () => {
    const cfg = await config([['ops', { channel: 'slack' }]]);
    expect(resolveRoute(cfg, { channel: 'discord' })).toEqual({
      agentId: 'main',
      sessionKey: 'agent:main:main',
      matchedBy: { tier: 'default', bindingIndex: null },
    });
    expect(resolveRoute(await config([]), { channel: 'http' }).matchedBy.tier).toBe('default');
  });
});

describe('resolveRoute: matching', () => {
  it('takes the first binding in config order within a tier', async () => {
    const cfg = await config([
      ['first', { channel: 'discord', peer: { kind: 'group', id: 'g1' }, accountId: '*' }],
      ['second', { channel: 'discord', peer: { kind: 'group', id: 'g1' } }],
      ['third', { channel: 'discord', peer: { kind: 'group', id: 'g1' } }],
    ]);
    expect(resolveRoute(cfg, GROUP_MSG)).toEqual(
      expect.objectContaining({ agentId: 'first', matchedBy: { tier: 'peer', bindingIndex: 0 } }),
    );
  });

  it('does not let a later binding of the same tier win by setting more fields', async () => {
    const cfg = await config([
      ['guild', { channel: 'discord', guildId: 'G' }],
      ['guild-and-team', { channel: 'discord', guildId: 'G', teamId: 'T' }],
    ]);
    expect(resolveRoute(cfg, GROUP_MSG).agentId).toBe('guild');
  });

  it('tiers a multi-field binding by its most specific field and still requires all its fields', async () => {
    const cfg = await config([
      ['guild', { channel: 'discord', guildId: 'G' }],
      ['peer-on-work', { channel: 'discord', accountId: 'work', peer: { kind: 'group', id: 'g1' } }],
    ]);
    expect(bindingTier(cfg.bindings[1])).toBe('peer');
    expect(resolveRoute(cfg, { ...GROUP_MSG, accountId: 'work' }).agentId).toBe('peer-on-work');
    // Same peer on the default account: the peer binding's accountId does not match, the guild one does.
    expect(resolveRoute(cfg, GROUP_MSG)).toEqual(
      expect.objectContaining({ agentId: 'guild', matchedBy: { tier: 'guildId', bindingIndex: 0 } }),
    );
  });

  it('accountId "*" matches every account, including a missing one', async () => {
    const cfg = await config([['any', { channel: 'http', accountId: '*' }]]);
    for (const accountId of ['work', 'default', undefined]) {
      expect(resolveRoute(cfg, { channel: 'http', accountId })).toEqual(
        expect.objectContaining({ agentId: 'any', matchedBy: { tier: 'accountId:*', bindingIndex: 0 } }),
      );
    }
  });

  it('a binding without accountId matches only the default account', async () => {
    const cfg = await config([
      ['chan', { channel: 'http' }],
      ['peer', { channel: 'http', peer: { kind: 'direct', id: 'alice' } }],
    ]);
    expect(resolveRoute(cfg, { channel: 'http', accountId: 'work' }).matchedBy.tier).toBe('default');
    expect(resolveRoute(cfg, { channel: 'http', accountId: 'work', peer: { kind: 'direct', id: 'alice' } }).agentId).toBe('main');
    expect(resolveRoute(cfg, { channel: 'http', accountId: 'default' }).agentId).toBe('chan');
    expect(resolveRoute(cfg, { channel: 'http' }).agentId).toBe('chan');
    expect(resolveRoute(cfg, { channel: 'http', peer: { kind: 'direct', id: 'alice' } }).agentId).toBe('peer');
  });

  it('requires channel, peer kind, guildId and teamId to be equal (exact, case-sensitive)', async () => {
    const cfg = await config([
      ['peer', { channel: 'discord', peer: { kind: 'group', id: 'g1' } }],
      ['guild', { channel: 'discord', guildId: 'G' }],
      ['team', { channel: 'slack', teamId: 'T' }],
    ]);
    expect(resolveRoute(cfg, { channel: 'discord', peer: { kind: 'channel', id: 'g1' } }).agentId).toBe('main');
    expect(resolveRoute(cfg, { channel: 'discord', peer: { kind: 'group', id: 'G1' } }).agentId).toBe('main');
    expect(resolveRoute(cfg, { channel: 'discord', guildId: 'g' }).agentId).toBe('main');
    expect(resolveRoute(cfg, { channel: 'discord', teamId: 'T' }).agentId).toBe('main');
    expect(resolveRoute(cfg, { channel: 'Slack', teamId: 'T' }).agentId).toBe('main');
    expect(resolveRoute(cfg, { channel: 'slack', teamId: 'T' }).agentId).toBe('team');
  });

  it('cannot be fooled by ids that contain separators', async () => {
    const cfg = await config([['x', { channel: 'a', guildId: 'b:c' }]]);
    expect(resolveRoute(cfg, { channel: 'a', guildId: 'b:c' }).agentId).toBe('x');
    expect(resolveRoute(cfg, { channel: 'a:b', guildId: 'c' }).agentId).toBe('main');
  });

  it('memoizes per config object without leaking answers across configs', async () => {
    const a = await config([['one', { channel: 'http' }]]);
    const b = await config([['two', { channel: 'http' }]]);
    expect(resolveRoute(a, { channel: 'http' }).agentId).toBe('one');
    expect(resolveRoute(b, { channel: 'http' }).agentId).toBe('two');
    expect(resolveRoute(a, { channel: 'http' }).agentId).toBe('one');
  });

  it('bindingAt returns the matched binding for explanations', async () => {
    const cfg = await config([['one', { channel: 'http', accountId: 'x' }]]);
    expect(bindingAt(cfg, 0)).toEqual({ index: 0, agentId: 'one', match: { channel: 'http', accountId: 'x' } });
    expect(bindingAt(cfg, null)).toBeNull();
    expect(bindingAt(cfg, 7)).toBeNull();
  });
});

describe('resolveRoute: session keys', () => {
  const bound = (dmScope: DmScope) => config([['support', { channel: 'whatsapp', accountId: '*' }]], { dmScope, mainKey: 'home' });
  const dm: InboundMessage = { channel: 'WhatsApp'.toLowerCase(), accountId: 'Biz', peer: { kind: 'direct', id: '+1555ABC' } };

  it.each([
    ['main', 'agent:support:home'],
    ['per-peer', 'agent:support:direct:+1555abc'],
    ['per-channel-peer', 'agent:support:whatsapp:direct:+1555abc'],
    ['per-account-channel-peer', 'agent:support:whatsapp:biz:direct:+1555abc'],
  ] as const)('direct message under dmScope %s', async (dmScope, key) => {
    expect(resolveRoute(await bound(dmScope), dm).sessionKey).toBe(key);
  });

  it('uses the default account id in per-account keys when the inbound has none', async () => {
    expect(resolveRoute(await bound('per-account-channel-peer'), { ...dm, accountId: undefined }).sessionKey).toBe(
      'agent:support:whatsapp:default:direct:+1555abc',
    );
  });

  it('group and channel peers get group keys whatever the dmScope; threads append :thread:', async () => {
    const cfg = await bound('per-peer');
    expect(resolveRoute(cfg, { channel: 'whatsapp', peer: { kind: 'group', id: 'Fam' } }).sessionKey).toBe(
      'agent:support:whatsapp:group:fam',
    );
    expect(resolveRoute(cfg, { channel: 'whatsapp', peer: { kind: 'channel', id: 'News' }, threadId: 'T9' }).sessionKey).toBe(
      'agent:support:whatsapp:channel:news:thread:t9',
    );
    expect(resolveRoute(cfg, { ...dm, threadId: 'Q1' }).sessionKey).toBe('agent:support:direct:+1555abc:thread:q1');
  });

  it('no peer means the main session; a thread without a peer is ignored', async () => {
    const cfg = await bound('per-account-channel-peer');
    expect(resolveRoute(cfg, { channel: 'whatsapp' }).sessionKey).toBe('agent:support:home');
    expect(resolveRoute(cfg, { channel: 'whatsapp', threadId: 'x' }).sessionKey).toBe('agent:support:home');
  });

  it('keys the default agent the same way', async () => {
    const cfg = await config([], { dmScope: 'per-channel-peer' });
    expect(resolveRoute(cfg, { channel: 'HTTP', peer: { kind: 'direct', id: 'Bob' } }).sessionKey).toBe('agent:main:http:direct:bob');
  });
});

describe('namesPeer', () => {
  it('is true only for a peer id some binding of that channel names, of any kind and on any account', async () => {
    const cfg = await config([
      ['alpha', { channel: 'a2a', peer: { kind: 'direct', id: 'acme:ctx-1' } }],
      ['alpha', { channel: 'slack', accountId: 'work', peer: { kind: 'group', id: 'g1' } }],
    ]);
    expect(namesPeer(cfg, 'a2a', 'acme:ctx-1')).toBe(true);
    expect(namesPeer(cfg, 'slack', 'g1')).toBe(true);
    expect(namesPeer(cfg, 'a2a', 'acme:ctx-2')).toBe(false);
    expect(namesPeer(cfg, 'a2a', 'acme')).toBe(false);
    // The channel is part of the name: the same id on another channel is not named.
    expect(namesPeer(cfg, 'slack', 'acme:ctx-1')).toBe(false);
  });

  it('an unnamed peer is routed exactly like a message without a peer', async () => {
    const cfg = await config([
      ['alpha', { channel: 'a2a', peer: { kind: 'direct', id: 'acme:ctx-1' } }],
      ['beta', { channel: 'a2a', accountId: '*' }],
    ]);
    const unnamed = resolveRoute(cfg, { channel: 'a2a', peer: { kind: 'direct', id: 'acme:ctx-9' } });
    const peerless = resolveRoute(cfg, { channel: 'a2a' });
    expect(namesPeer(cfg, 'a2a', 'acme:ctx-9')).toBe(false);
    expect([unnamed.agentId, unnamed.matchedBy]).toEqual([peerless.agentId, peerless.matchedBy]);
    expect(unnamed.agentId).toBe('beta');
  });
});
