import { agentGroups } from './agent-groups';

const statusOf = (pairs: Record<string, string>) => (from: string, to: string) => pairs[`${from}>${to}`] ?? '';

describe('agentGroups', () => {
  it('groups agents that all reach each other alike, and keeps the rest apart', () => {
    const pairs: Record<string, string> = {};
    for (const a of ['a', 'b', 'c']) for (const b of ['a', 'b', 'c']) if (a !== b) pairs[`${a}>${b}`] = 'allowed';
    pairs['a>d'] = pairs['b>d'] = pairs['c>d'] = 'allowed';
    expect(agentGroups(['a', 'b', 'c', 'd'], statusOf(pairs))).toEqual([{ members: ['a', 'b', 'c'], status: 'allowed' }]);
  });

  it('leaves out an agent whose arrows to the others differ from the group’s', () => {
    const pairs: Record<string, string> = {
      'a>b': 'allowed',
      'b>a': 'allowed',
      'c>a': 'allowed',
      'a>c': 'allowed',
      'b>c': 'allowed',
      'c>b': 'allowed',
    };
    pairs['a>d'] = 'allowed'; // b and c do not reach d: a cannot share a box with them
    expect(agentGroups(['a', 'b', 'c', 'd'], statusOf(pairs))).toEqual([{ members: ['b', 'c'], status: 'allowed' }]);
  });

  it('never groups agents that reach nobody, nor pairs of different statuses', () => {
    expect(agentGroups(['a', 'b'], statusOf({}))).toEqual([]);
    expect(agentGroups(['a', 'b'], statusOf({ 'a>b': 'allowed', 'b>a': 'allowed|added' }))).toEqual([]);
  });
});
