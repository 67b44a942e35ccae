import { planUnbind } from './agent-edits';

const root = {
  agents: { list: [{ id: 'main' }, { id: 'ops' }] },
  bindings: [
    { agentId: 'main', match: { channel: 'http', account: 'work' } },
    { agentId: 'ops', match: { channel: 'http', accountId: 'work' } },
    { agentId: 'main', match: { channel: 'http', accountId: 'work', peer: { kind: 'group', id: 'g' } } },
    { agentId: 'Main', match: { accountId: 'work', channel: 'http' } },
  ],
};

describe('planUnbind', () => {
  it('removes every binding of the agent with exactly that match (account read as accountId), last first', () => {
    expect(planUnbind('main', { channel: 'http', accountId: 'work' })(root)).toEqual([
      { op: 'remove', path: ['bindings', 3] },
      { op: 'remove', path: ['bindings', 0] },
    ]);
  });

  it('does not treat a narrower binding (with a peer) as the same one', () => {
    expect(() => planUnbind('ops', { channel: 'http', accountId: 'work', peer: { kind: 'group', id: 'g' } })(root)).toThrow(
      'agent "ops" has no binding {"channel":"http","accountId":"work","peer":{"kind":"group","id":"g"}} in openclaw.json; its bindings: {"channel":"http","accountId":"work"}',
    );
  });

  it('names an unknown agent as unknown', () => {
    expect(() => planUnbind('ghost', { channel: 'http' })(root)).toThrow('agent "ghost" is not defined in openclaw.json');
  });
});
