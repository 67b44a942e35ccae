import { snapshotFrom } from '../../../test/support/config-snapshot';
import { a2aImpact } from './a2a-impact';

const AGENTS = { list: [{ id: 'main' }, { id: 'support' }, { id: 'sales' }] };
const config = async (a2a: Record<string, unknown>) =>
  (await snapshotFrom({ agents: AGENTS, channels: { a2a: { enabled: true, ...a2a } } }, { env: { PEER_TOKEN: 'from-env-secret-1' } }))
    .config;

describe('a2aImpact', () => {
  it('names peers added and removed, says how tokens changed without their values, and lists changed limits', async () => {
    const before = await config({
      peers: { hermes: { token: 'old-token-aaaa' }, athena: { token: 'athena-token-1' }, zeus: { token: '${PEER_TOKEN}' } },
      rateLimitPerMinute: 60,
    });
    const after = await config({
      peers: {
        hermes: { token: 'new-token-bbbb', url: 'https://hermes.example', outboundToken: 'out-1234' },
        zeus: { token: '${PEER_UNSET}' },
        apollo: { token: 'apollo-token' },
      },
      rateLimitPerMinute: 30,
      files: { maxBytes: 1024 },
    });
    const impact = a2aImpact(before, after);
    expect(impact).toEqual({
      peersAdded: ['apollo'],
      peersRemoved: ['athena'],
      tokensRotated: [
        { peer: 'hermes', field: 'token', change: 'rotated' },
        { peer: 'hermes', field: 'outboundToken', change: 'added' },
        { peer: 'zeus', field: 'token', change: 'removed' },
      ],
      exposedAgents: null,
      limits: [
        { key: 'channels.a2a.rateLimitPerMinute', before: 60, after: 30 },
        { key: 'channels.a2a.files.maxBytes', before: before.channels.a2a.files.maxBytes, after: 1024 },
      ],
    });
    expect(JSON.stringify(impact)).not.toMatch(/token-|from-env|out-1234/);
  });

  it('compares the agents peers can reach: unset means every agent', async () => {
    const before = await config({ peers: {} });
    const after = await config({ peers: {}, exposeAgents: ['support'] });
    expect(a2aImpact(before, after).exposedAgents).toEqual({ before: null, after: ['support'], added: [], removed: ['main', 'sales'] });
    expect(a2aImpact(after, after).exposedAgents).toBeNull();
  });
});
