import { AgentToAgentSettingsInput, createAgentToAgentPolicy } from './agent-to-agent-policy';

/** Enabled unless told otherwise; pass `{enabled: undefined}`-style input through `createAgentToAgentPolicy` directly. */
const policy = (allow: unknown, enabled: unknown = true) => createAgentToAgentPolicy({ enabled, allow });
const rawPolicy = (enabled: unknown) => createAgentToAgentPolicy(enabled === undefined ? { allow: [] } : { enabled, allow: [] });

describe('createAgentToAgentPolicy', () => {
  describe('enabled must be exactly true', () => {
    it.each([
      ['unset', undefined],
      ['false', false],
      ['the string "true"', 'true'],
      ['1', 1],
      ['an object', {}],
      ['null', null],
    ])('%s disables every cross-agent pair', (_name, enabled) => {
      const p = rawPolicy(enabled);
      expect(p.enabled).toBe(false);
      expect(p.isAllowed('support', 'expert')).toBe(false);
      expect(p.explain('support', 'expert')).toEqual({
        allowed: false,
        failed: 'disabled',
        rule: 'tools.agentToAgent.enabled is not true',
      });
    });

    it('a missing settings object behaves as disabled', () => {
      expect(createAgentToAgentPolicy(undefined).isAllowed('support', 'expert')).toBe(false);
    });

    it('true enables', () => {
      expect(policy([], true).isAllowed('support', 'expert')).toBe(true);
    });
  });

  it('a = b is always allowed, even when disabled or when the id matches no pattern', () => {
    expect(policy(['other'], false).isAllowed('support', 'support')).toBe(true);
    expect(policy(['other'], 'true').isAllowed('Weird.Id', 'Weird.Id')).toBe(true);
    expect(policy(['other'], false).explain('x', 'x').allowed).toBe(true);
  });

  it('an empty or missing allow list admits every agent', () => {
    for (const allow of [[], undefined, null]) {
      const p = policy(allow);
      expect(p.matches('anything')).toBe(true);
      expect(p.isAllowed('a', 'b')).toBe(true);
    }
    expect(policy([]).explain('a', 'b').rule).toBe('tools.agentToAgent.allow is empty: every agent is allowed');
  });

  it('"*" alone matches every id', () => {
    const p = policy(['*']);
    expect(['a', 'Support', 'x.y', ''].every((id) => p.matches(id))).toBe(true);
    expect(p.explain('a', 'b')).toEqual({ allowed: true, rule: 'tools.agentToAgent.allow: "*" matched both' });
  });

  describe('exact patterns (no *) are case-sensitive', () => {
    const p = policy(['support', 'Expert']);
    it('match only the identical id', () => {
      expect(p.matches('support')).toBe(true);
      expect(p.matches('Support')).toBe(false);
      expect(p.matches('SUPPORT')).toBe(false);
      expect(p.matches('Expert')).toBe(true);
      expect(p.matches('expert')).toBe(false);
    });
    it('are not prefixes or substrings', () => {
      expect(p.matches('support2')).toBe(false);
      expect(p.matches('suppor')).toBe(false);
      expect(p.matches('xsupport')).toBe(false);
    });
  });

  describe('glob patterns (with *) are case-insensitive', () => {
    it('* matches any run of characters, including none', () => {
      const p = policy(['sup*', '*ert', 'a*b*c']);
      expect(p.matches('support')).toBe(true);
      expect(p.matches('SUPport')).toBe(true);
      expect(p.matches('sup')).toBe(true);
      expect(p.matches('EXPERT')).toBe(true);
      expect(p.matches('ert')).toBe(true);
      expect(p.matches('abc')).toBe(true);
      expect(p.matches('A-x-B-y-C')).toBe(true);
      expect(p.matches('xsup')).toBe(false);
      expect(p.matches('experts')).toBe(false);
      expect(p.matches('acb')).toBe(false);
    });

    it('is anchored at both ends', () => {
      const p = policy(['*port']);
      expect(p.matches('support')).toBe(true);
      expect(p.matches('supporter')).toBe(false);
    });

    it('treats regex metacharacters as literal characters', () => {
      const p = policy(['a.b*', 'x+*', 'q?*', '(g)*', '*[z]', 'c|d*', '^e$*', 'f{2}*', 'back\\*']);
      expect(p.matches('a.bcd')).toBe(true);
      expect(p.matches('aXbcd')).toBe(false); // "." is not "any character"
      expect(p.matches('x+1')).toBe(true);
      expect(p.matches('xx1')).toBe(false); // "+" is not "one or more"
      expect(p.matches('q?')).toBe(true);
      expect(p.matches('q')).toBe(false); // "?" is not "optional"
      expect(p.matches('(g)1')).toBe(true);
      expect(p.matches('g1')).toBe(false); // parentheses are not a group
      expect(p.matches('id[z]')).toBe(true);
      expect(p.matches('idz')).toBe(false); // brackets are not a class
      expect(p.matches('c|d')).toBe(true);
      expect(p.matches('c')).toBe(false); // "|" is not alternation
      expect(p.matches('^e$x')).toBe(true);
      expect(p.matches('e')).toBe(false);
      expect(p.matches('f{2}')).toBe(true);
      expect(p.matches('ff')).toBe(false);
      expect(p.matches('back\\slash')).toBe(true);
    });

    it('a pattern without * keeps metacharacters literal too (plain equality)', () => {
      const p = policy(['a.b']);
      expect(p.matches('a.b')).toBe(true);
      expect(p.matches('axb')).toBe(false);
    });
  });

  it('requires both sides to match when enabled, and names the side that did not', () => {
    const p = policy(['sup*']);
    expect(p.isAllowed('support', 'expert')).toBe(false);
    expect(p.isAllowed('expert', 'support')).toBe(false);
    expect(p.explain('support', 'expert')).toEqual({
      allowed: false,
      failed: 'allow',
      rule: 'tools.agentToAgent.allow: no pattern matches "expert"',
    });
    expect(policy(['other']).explain('support', 'expert').rule).toBe('tools.agentToAgent.allow: no pattern matches "support" or "expert"');
    expect(policy(['support', '*ert']).explain('support', 'expert')).toEqual({
      allowed: true,
      rule: 'tools.agentToAgent.allow: "support" matched support, "*ert" matched expert',
    });
  });

  it('blank, non-string and non-array entries match nothing (a malformed list fails closed)', () => {
    expect(policy(['']).isAllowed('a', 'b')).toBe(false);
    expect(policy(['  ']).isAllowed('a', 'b')).toBe(false);
    expect(policy([42, null]).isAllowed('42', 'null')).toBe(false);
    expect(policy('*').isAllowed('a', 'b')).toBe(false);
    expect(policy([' support ', 'expert']).isAllowed('support', 'expert')).toBe(true); // surrounding spaces trimmed
  });

  it('compiles once per settings object and again for a new one (hot reload)', () => {
    const settings: AgentToAgentSettingsInput = { enabled: true, allow: ['sup*'] };
    const first = createAgentToAgentPolicy(settings);
    expect(createAgentToAgentPolicy(settings)).toBe(first);
    const reloaded = createAgentToAgentPolicy({ enabled: true, allow: ['exp*'] });
    expect(reloaded).not.toBe(first);
    expect(reloaded.matches('expert')).toBe(true);
    expect(first.matches('expert')).toBe(false);
    expect(Object.isFrozen(first)).toBe(true);
  });
});
