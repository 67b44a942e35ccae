import type { NormalizedConfig, ResolvedBinding, RuntimeSnapshot } from '../config/config.types';
import { ROUTE_CACHE_MAX, RoutingService } from './routing.service';

function snapshot(revision: string, agentId: string): RuntimeSnapshot {
  const bindings: ResolvedBinding[] = [{ index: 0, agentId, match: { channel: 'http', accountId: '*' } }];
  const config = {
    defaultAgentId: 'main',
    bindings,
    session: { dmScope: 'per-peer', mainKey: 'main', agentToAgent: { maxPingPongTurns: 5, maxChainHops: 8 } },
  } as unknown as NormalizedConfig;
  return { revision, config } as RuntimeSnapshot;
}

describe('RoutingService', () => {
  let current: RuntimeSnapshot;
  let service: RoutingService;
  beforeEach(() => {
    current = snapshot('rev-a', 'alpha');
    service = new RoutingService({ current: () => current });
  });

  it('caches results per revision and serves repeats from the cache', () => {
    const first = service.resolve({ channel: 'http', peer: { kind: 'direct', id: 'u1' } });
    const again = service.resolve({ channel: 'http', accountId: 'default', peer: { kind: 'direct', id: 'u1' } });
    expect(again).toBe(first);
    expect(service.stats()).toEqual(expect.objectContaining({ revision: 'rev-a', hits: 1, misses: 1, size: 1, max: 4000 }));
  });

  it('keeps inbounds that differ in any routing field apart', () => {
    const a = service.resolve({ channel: 'http', peer: { kind: 'direct', id: 'u1' }, threadId: 't1' });
    const b = service.resolve({ channel: 'http', peer: { kind: 'direct', id: 'u1' }, threadId: 't2' });
    const c = service.resolve({ channel: 'http', peer: { kind: 'group', id: 'u1' } });
    expect(new Set([a.sessionKey, b.sessionKey, c.sessionKey]).size).toBe(3);
    expect(service.stats().misses).toBe(3);
  });

  it('drops the cache when the revision changes', () => {
    expect(service.resolve({ channel: 'http' }).agentId).toBe('alpha');
    current = snapshot('rev-b', 'beta');
    expect(service.resolve({ channel: 'http' }).agentId).toBe('beta');
    expect(service.stats()).toEqual(expect.objectContaining({ revision: 'rev-b', resets: 1, size: 1 }));
  });

  it('stays bounded', () => {
    for (let i = 0; i < ROUTE_CACHE_MAX + 50; i++) service.resolve({ channel: 'http', peer: { kind: 'direct', id: `u${i}` } });
    expect(service.stats().size).toBe(ROUTE_CACHE_MAX);
  });

  it('explains with the binding from the same snapshot', () => {
    expect(service.explain({ channel: 'http', accountId: 'work' })).toEqual({
      agentId: 'alpha',
      sessionKey: 'agent:alpha:main',
      matchedBy: { tier: 'accountId:*', bindingIndex: 0 },
      binding: { index: 0, agentId: 'alpha', match: { channel: 'http', accountId: '*' } },
    });
  });
});
