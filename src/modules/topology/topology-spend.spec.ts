import type { RouteSpend } from '../usage';
import { edgeId, type TopologyEdge, type TopologyEdgeKind, type TopologyGraph } from './topology-graph';
import { spendEdges } from './topology-spend';

const edge = (kind: TopologyEdgeKind, from: string, to: string): TopologyEdge => ({ id: edgeId(kind, from, to), kind, from, to });

/**
 * http: account ops → binding 0 → support; a `*` whatsapp binding 1 → expert; telegram account tg has two bindings
 * (by peer) to expert; every channel falls through to main. Peer hermes reaches support; support may message expert.
 */
function graph(): TopologyGraph {
  return {
    revision: 'r1',
    defaultAgentId: 'main',
    nodes: [],
    edges: [
      edge('route', 'account:http:ops', 'binding:0'),
      edge('binding', 'binding:0', 'agent:support'),
      edge('route', 'channel:whatsapp', 'binding:1'),
      edge('binding', 'binding:1', 'agent:expert'),
      edge('route', 'account:telegram:tg', 'binding:2'),
      edge('binding', 'binding:2', 'agent:expert'),
      edge('route', 'account:telegram:tg', 'binding:3'),
      edge('binding', 'binding:3', 'agent:expert'),
      edge('route', 'channel:http', 'route:default'),
      edge('route', 'channel:whatsapp', 'route:default'),
      edge('route', 'channel:telegram', 'route:default'),
      edge('binding', 'route:default', 'agent:main'),
      edge('a2a-in', 'a2a-in:hermes', 'agent:support'),
      edge('agent-to-agent', 'agent:support', 'agent:expert'),
    ],
  };
}

const spend = (channel: string, caller: string, agentId: string, over: Partial<RouteSpend> = {}): RouteSpend => ({
  channel,
  caller,
  agentId,
  calls: 1,
  inputTokens: 100,
  outputTokens: 10,
  cost: 0.5,
  ...over,
});

function spendOn(g: TopologyGraph): Record<string, unknown> {
  return Object.fromEntries(g.edges.filter((e) => e.spend).map((e) => [e.id, e.spend]));
}

describe('spendEdges', () => {
  it("puts a peer's spend on its a2a-in edge and a sending session's on its agent's agent-to-agent edge", () => {
    const g = graph();
    spendEdges(g, [
      spend('a2a', 'hermes', 'support', { calls: 2, inputTokens: 30, outputTokens: 4, cost: 0.25 }),
      spend('agent', 'agent:support:main', 'expert', { cost: null }),
      spend('agent', 'agent:support:subagent:1a2b', 'expert', { inputTokens: 5, outputTokens: 1, cost: 1 }),
    ]);
    expect(spendOn(g)).toEqual({
      'a2a-in:a2a-in:hermes->agent:support': { inputTokens: 30, outputTokens: 4, cost: 0.25, calls: 2 },
      'agent-to-agent:agent:support->agent:expert': { inputTokens: 105, outputTokens: 11, cost: 1, calls: 2 },
    });
  });

  it("puts an account's spend on its one way to the agent: the route into the binding and the binding's edge", () => {
    const g = graph();
    spendEdges(g, [
      spend('http', 'ops', 'support'),
      spend('http', 'default', 'main', { cost: null }),
      spend('whatsapp', 'anyone', 'expert', { inputTokens: 1, outputTokens: 1 }),
    ]);
    expect(spendOn(g)).toEqual({
      'route:account:http:ops->binding:0': { inputTokens: 100, outputTokens: 10, cost: 0.5, calls: 1 },
      'binding:binding:0->agent:support': { inputTokens: 100, outputTokens: 10, cost: 0.5, calls: 1 },
      'route:channel:http->route:default': { inputTokens: 100, outputTokens: 10, cost: null, calls: 1 },
      'binding:route:default->agent:main': { inputTokens: 100, outputTokens: 10, cost: null, calls: 1 },
      'route:channel:whatsapp->binding:1': { inputTokens: 1, outputTokens: 1, cost: 0.5, calls: 1 },
      'binding:binding:1->agent:expert': { inputTokens: 1, outputTokens: 1, cost: 0.5, calls: 1 },
    });
  });

  it('leaves spend without one edge to carry it in the list only: several ways, keys, refused pairs, unknown peers', () => {
    const g = graph();
    spendEdges(g, [
      spend('telegram', 'tg', 'expert'), // two bindings lead there: the row does not say which answered
      spend('openai', 'desk', 'main'), // keys have no node
      spend('mcp', 'desk', 'main'),
      spend('agent', 'agent:expert:main', 'support'), // no edge that way (refused now)
      spend('agent', 'not a session key', 'expert'),
      spend('a2a', 'iris', 'support'), // not a configured peer
      spend('http', 'ops', 'expert'), // no way from ops to expert
    ]);
    expect(spendOn(g)).toEqual({});
  });
});
