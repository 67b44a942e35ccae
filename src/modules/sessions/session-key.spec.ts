import {
  agentIdFromSessionKey,
  directSessionKey,
  DirectSessionKeyInput,
  groupSessionKey,
  InvalidSessionKeyError,
  isThreadSessionKey,
  isValidSessionKey,
  mainSessionKey,
  parseSessionKey,
  subagentSessionKey,
} from './session-key';

const dm = (over: Partial<DirectSessionKeyInput> = {}): DirectSessionKeyInput => ({
  agentId: 'Support',
  dmScope: 'main',
  mainKey: 'main',
  channel: 'WhatsApp',
  accountId: 'Work',
  peerId: '+1555ABC',
  ...over,
});

describe('session keys: building', () => {
  it('builds the main key, lowercased', () => {
    expect(mainSessionKey('Main', 'Home')).toBe('agent:main:home');
  });

  it.each([
    ['main', 'agent:support:main'],
    ['per-peer', 'agent:support:direct:+1555abc'],
    ['per-channel-peer', 'agent:support:whatsapp:direct:+1555abc'],
    ['per-account-channel-peer', 'agent:support:whatsapp:work:direct:+1555abc'],
  ] as const)('builds a direct key for dmScope %s', (dmScope, expected) => {
    expect(directSessionKey(dm({ dmScope }))).toBe(expected);
  });

  it('appends :thread:<id> to direct keys in every dmScope', () => {
    expect(directSessionKey(dm({ dmScope: 'main', threadId: 'T1' }))).toBe('agent:support:main:thread:t1');
    expect(directSessionKey(dm({ dmScope: 'per-account-channel-peer', threadId: 'T1' }))).toBe(
      'agent:support:whatsapp:work:direct:+1555abc:thread:t1',
    );
  });

  it('builds group and channel keys, with threads', () => {
    expect(groupSessionKey({ agentId: 'ops', channel: 'Discord', kind: 'group', peerId: 'G-1' })).toBe('agent:ops:discord:group:g-1');
    expect(groupSessionKey({ agentId: 'ops', channel: 'slack', kind: 'channel', peerId: 'C9' })).toBe('agent:ops:slack:channel:c9');
    expect(groupSessionKey({ agentId: 'ops', channel: 'slack', kind: 'channel', peerId: 'C9', threadId: '1700.5' })).toBe(
      'agent:ops:slack:channel:c9:thread:1700.5',
    );
  });

  it('builds subagent keys with a given or fresh uuid', () => {
    expect(subagentSessionKey('Main', 'ABC-1')).toBe('agent:main:subagent:abc-1');
    const a = subagentSessionKey('main');
    const b = subagentSessionKey('main');
    expect(a).toMatch(/^agent:main:subagent:[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });

  it('refuses parts that would make the key unparseable', () => {
    expect(() => mainSessionKey('bad:id', 'main')).toThrow(/invalid agent id/);
    expect(() => mainSessionKey('main', '')).toThrow(/mainKey is empty/);
    expect(() => directSessionKey(dm({ dmScope: 'per-channel-peer', channel: 'a:b' }))).toThrow(/channel must not contain ":"/);
    expect(() => directSessionKey(dm({ dmScope: 'per-account-channel-peer', accountId: 'x:y' }))).toThrow(/accountId/);
    expect(() => directSessionKey(dm({ peerId: '' }))).toThrow(/peerId is empty/);
    expect(() => groupSessionKey({ agentId: 'a', channel: 'c', kind: 'direct' as never, peerId: 'p' })).toThrow(/group/);
    expect(() => groupSessionKey({ agentId: 'a', channel: 'c', kind: 'group', peerId: 'p', threadId: 'x:thread:y' })).toThrow(/thread/);
  });
});

describe('session keys: parsing', () => {
  it('round-trips every form', () => {
    expect(parseSessionKey('agent:main:main')).toEqual({ kind: 'main', key: 'agent:main:main', agentId: 'main', mainKey: 'main' });
    expect(parseSessionKey(directSessionKey(dm({ dmScope: 'per-peer' })))).toEqual(
      expect.objectContaining({ kind: 'direct', dmScope: 'per-peer', agentId: 'support', peerId: '+1555abc' }),
    );
    expect(parseSessionKey(directSessionKey(dm({ dmScope: 'per-channel-peer' })))).toEqual(
      expect.objectContaining({ kind: 'direct', dmScope: 'per-channel-peer', channel: 'whatsapp', peerId: '+1555abc' }),
    );
    expect(parseSessionKey(directSessionKey(dm({ dmScope: 'per-account-channel-peer', threadId: 't' })))).toEqual({
      kind: 'direct',
      dmScope: 'per-account-channel-peer',
      key: 'agent:support:whatsapp:work:direct:+1555abc:thread:t',
      agentId: 'support',
      channel: 'whatsapp',
      accountId: 'work',
      peerId: '+1555abc',
      threadId: 't',
    });
    expect(parseSessionKey('agent:ops:slack:channel:c9:thread:42')).toEqual(
      expect.objectContaining({ kind: 'channel', channel: 'slack', peerId: 'c9', threadId: '42' }),
    );
    expect(parseSessionKey('agent:ops:discord:group:g1')).toEqual(expect.objectContaining({ kind: 'group', peerId: 'g1' }));
    expect(parseSessionKey('agent:main:subagent:1234')).toEqual({
      kind: 'subagent',
      key: 'agent:main:subagent:1234',
      agentId: 'main',
      subagentId: '1234',
    });
    expect(parseSessionKey('agent:main:main:thread:9')).toEqual(expect.objectContaining({ kind: 'main', mainKey: 'main', threadId: '9' }));
  });

  it('keeps peer and thread ids that contain ":"', () => {
    const key = groupSessionKey({
      agentId: 'a',
      channel: 'matrix',
      kind: 'group',
      peerId: '!room:example.org',
      threadId: '$ev:example.org',
    });
    expect(parseSessionKey(key)).toEqual(
      expect.objectContaining({ kind: 'group', channel: 'matrix', peerId: '!room:example.org', threadId: '$ev:example.org' }),
    );
    const direct = directSessionKey(dm({ dmScope: 'per-channel-peer', peerId: '@u:server:direct:x' }));
    expect(parseSessionKey(direct)).toEqual(
      expect.objectContaining({ dmScope: 'per-channel-peer', channel: 'whatsapp', peerId: '@u:server:direct:x' }),
    );
    // A peer id may even contain :thread: when a thread follows (split at the last marker).
    const tricky = directSessionKey(dm({ dmScope: 'per-peer', peerId: 'a:thread:b', threadId: 'c' }));
    expect(parseSessionKey(tricky)).toEqual(expect.objectContaining({ peerId: 'a:thread:b', threadId: 'c' }));
  });

  it('lowercases the input so mixed-case keys resolve to the same owner', () => {
    expect(parseSessionKey('Agent:Support:WhatsApp:Direct:+1')).toEqual(
      expect.objectContaining({ key: 'agent:support:whatsapp:direct:+1', agentId: 'support', channel: 'whatsapp' }),
    );
    expect(agentIdFromSessionKey('AGENT:Ops:main')).toBe('ops');
  });

  it.each([
    '',
    'main',
    'agent:',
    'agent:main',
    'agent:main:',
    'agent::main',
    'agent:bad id:main',
    'agent:-x:main',
    'session:main:main',
    'agent:main:direct:',
    'agent:main:slack:group:',
    'agent:main:subagent:',
    'agent:main:main:thread:',
    'agent:main::x',
  ])('rejects the malformed key %j', (key) => {
    expect(parseSessionKey(key)).toBeNull();
    expect(isValidSessionKey(key)).toBe(false);
    expect(() => agentIdFromSessionKey(key)).toThrow(InvalidSessionKeyError);
  });

  it('explains why a key is malformed', () => {
    expect(() => agentIdFromSessionKey('agent:Bad Id:main')).toThrow(/"bad id" is not a valid agent id/);
    expect(() => agentIdFromSessionKey('user:main')).toThrow(/missing the "agent:" prefix/);
    // Keys also arrive from untyped JSON: the checks must hold for values the signature rules out.
    // @ts-expect-error a number is not a key
    expect(() => agentIdFromSessionKey(42)).toThrow(/not a string/);
    // @ts-expect-error nor is undefined
    expect(parseSessionKey(undefined)).toBeNull();
  });

  it('tells thread keys apart', () => {
    expect(isThreadSessionKey('agent:a:slack:channel:c:thread:1')).toBe(true);
    expect(isThreadSessionKey('agent:a:direct:p:thread:1')).toBe(true);
    expect(isThreadSessionKey('agent:a:slack:channel:c')).toBe(false);
    expect(isThreadSessionKey('agent:a:subagent:x:thread:1')).toBe(false);
    expect(isThreadSessionKey('not-a-key:thread:1')).toBe(false);
  });

  it('takes the owner from segment 2 whatever the peer id contains', () => {
    expect(agentIdFromSessionKey('agent:support:a2a:direct:agent:main:main')).toBe('support');
    expect(parseSessionKey('agent:support:a2a:direct:agent:main:main')).toEqual(expect.objectContaining({ peerId: 'agent:main:main' }));
  });
});
