import { locateIssues } from './locate-issues';

const TEXT = `{
  // the agents
  agents: { list: [
    { id: "main" },
    { id: "coding", modle: "x" },
  ] },
  session: {
    agentToAgent: { maxPingPongTurns: "lots" },
  },
}`;

describe('locateIssues', () => {
  it('gives each issue the line its path is written on, or its deepest parent the text holds', () => {
    const located = locateIssues(
      [
        { path: 'agents.list[1].modle', message: 'unknown key' },
        { path: 'session.agentToAgent.maxPingPongTurns', message: 'must be an integer' },
        { path: 'session.agentToAgent.missing', message: 'required' },
        { path: 'gateway.port', message: 'not written at all' },
      ],
      TEXT,
    );
    expect(located.map((i) => i.line)).toEqual([5, 8, 8, undefined]);
  });

  it('leaves issues with a position, of another file, or of the whole document as they are', () => {
    const issues = [
      { path: '', message: 'syntax', line: 3, column: 2 },
      { path: 'agents.list[0].id', message: 'in an include', file: '/etc/agents.json5' },
      { path: '', message: 'the config must be an object' },
    ];
    expect(locateIssues(issues, TEXT, '/etc/openclaw.json')).toEqual(issues);
  });
});
