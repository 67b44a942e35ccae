import { snapshotFrom } from '../../../../test/support/config-snapshot';
import type { ResolvedBinding, RuntimeSnapshot } from '../../config/config.types';
import { resolveRoute } from '../../routing/route-resolver';
import { A2aRoute, routeA2aConversation } from './session-route';

function snapshot(bindings: Array<Omit<ResolvedBinding, 'index'>>, exposeAgents: string[] | null = null): Promise<RuntimeSnapshot> {
  return snapshotFrom({
    agents: { list: ['main', 'support', 'ops'].map((id) => ({ id })) },
    bindings,
    // dmScope "main" would put every DM into agent:<id>:main; A2A must ignore it.
    session: { dmScope: 'main', mainKey: 'main' },
    channels: { a2a: { exposeAgents: exposeAgents ?? undefined } },
  });
}

const route = (s: RuntimeSnapshot, peer = 'hermes', contextId = 'ctx-1'): A2aRoute & { agentId?: string } =>
  routeA2aConversation(s, (inbound) => resolveRoute(s.config, inbound), peer, contextId);

describe('routeA2aConversation', () => {
  it('uses a per-(peer, context) session whatever session.dmScope says', async () => {
    expect(route(await snapshot([]))).toEqual({ agentId: 'main', sessionKey: 'agent:main:a2a:default:direct:hermes:ctx-1' });
    expect(route(await snapshot([]), 'iris', 'ctx-1')).toEqual({ agentId: 'main', sessionKey: 'agent:main:a2a:default:direct:iris:ctx-1' });
  });

  it('prefers a binding for the exact peer:context, then one for the bare peer, then the channel', async () => {
    const s = await snapshot([
      { agentId: 'ops', match: { channel: 'a2a' } },
      { agentId: 'support', match: { channel: 'a2a', peer: { kind: 'direct', id: 'hermes' } } },
      { agentId: 'main', match: { channel: 'a2a', peer: { kind: 'direct', id: 'hermes:special' } } },
    ]);
    expect(route(s, 'hermes', 'special').agentId).toBe('main');
    expect(route(s, 'hermes', 'ctx-9')).toEqual({ agentId: 'support', sessionKey: 'agent:support:a2a:default:direct:hermes:ctx-9' });
    expect(route(s, 'iris', 'ctx-9').agentId).toBe('ops');
  });

  it('only reaches exposed agents: an unexposed route goes to the first exposed agent', async () => {
    const s = await snapshot([{ agentId: 'ops', match: { channel: 'a2a' } }], ['support', 'main']);
    expect(route(s)).toEqual({ agentId: 'support', sessionKey: 'agent:support:a2a:default:direct:hermes:ctx-1' });
    const exposedRoute = await snapshot([{ agentId: 'main', match: { channel: 'a2a' } }], ['support', 'main']);
    expect(route(exposedRoute).agentId).toBe('main');
  });

  it('refuses when no exposed agent is configured', async () => {
    expect(route(await snapshot([], ['ghost']))).toEqual({ refused: true });
  });
});
