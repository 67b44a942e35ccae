import { snapshotFrom } from '../../../test/support/config-snapshot';
import type { RuntimeSnapshot } from '../config/config.types';
import { ROUTE_CACHE_MAX, RoutingService } from './routing.service';

/** A loaded snapshot under a revision name of the test's choosing, so the cache stats read plainly. */
async function snapshot(revision: string, agentId: string): Promise<RuntimeSnapshot> {
  const loaded = await snapshotFrom({
    agents: { list: [{ id: 'main' }, { id: agentId }] },
    bindings: [{ agentId, match: { channel: 'http', accountId: '*' } }],
    session: { dmScope: 'per-peer', mainKey: 'main', agentToAgent: { maxPingPongTurns: 5, maxChainHops: 8 } },
  });
  return { ...loaded, revision };
}

describe('RoutingService', () => {
  let current: RuntimeSnapshot;
  let service: RoutingService;
  beforeEach(async () => {
    current = await snapshot('rev-a', 'alpha');
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

  it('drops the cache when the revision changes', async () => {
    expect(service.resolve({ channel: 'http' }).agentId).toBe('alpha');
    current = await snapshot('rev-b', 'beta');
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
