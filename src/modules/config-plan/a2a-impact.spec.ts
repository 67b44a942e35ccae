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
        { key: 'channels.a2a.peers.hermes.url', before: undefined, after: 'https://hermes.example' },
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

  /**
   * The raw `channels.a2a` of a candidate that differs from BASE in one setting only, per setting of the normalized
   * channel, its `files` and its peers. A setting added to `A2aChannelSettings` or `A2aPeerSettings` fails the test
   * below until it has a row here, and the row fails until `a2aImpact` shows the change (so a plan never hides one).
   */
  const BASE = { peers: { hermes: { token: 'hermes-token-1', url: 'https://hermes.example', pushUrls: ['https://hooks.example/*'] } } };
  const withPeer = (peer: Record<string, unknown>) => ({ peers: { hermes: { ...BASE.peers.hermes, ...peer } } });
  const CHANNEL_CHANGES: Record<string, Record<string, unknown>> = {
    enabled: { enabled: false },
    advertisedUrl: { advertisedUrl: 'https://gateway.example/a2a' },
    replyTimeoutMs: { replyTimeoutMs: 65_432 },
    inputTimeoutMs: { inputTimeoutMs: 654_321 },
    rateLimitPerMinute: { rateLimitPerMinute: 7 },
    keptTasksPerPeer: { keptTasksPerPeer: 9 },
    exposeAgents: { exposeAgents: ['main'] },
    peers: { peers: {} },
  };
  const FILES_CHANGES: Record<string, Record<string, unknown>> = {
    maxBytes: { maxBytes: 99 },
    mediaTypes: { mediaTypes: ['text/plain'] },
  };
  const PEER_CHANGES: Record<string, Record<string, unknown>> = {
    // The name is the key: a renamed peer is one removed and one added.
    name: { peers: { athena: BASE.peers.hermes } },
    token: withPeer({ token: 'hermes-token-2' }),
    // Usable follows the token: unset by an unset ${VAR}, shown as the token removed.
    usable: withPeer({ token: '${PEER_UNSET}' }),
    url: withPeer({ url: 'https://hermes.example/v2' }),
    outboundToken: withPeer({ outboundToken: 'out-token-1' }),
    protocolVersion: withPeer({ protocolVersion: '0.3' }),
    pushUrls: withPeer({ pushUrls: [] }),
    trustBudget: withPeer({ trustBudget: true }),
  };
  const shows = (impact: ReturnType<typeof a2aImpact>) =>
    impact.peersAdded.length + impact.peersRemoved.length + impact.tokensRotated.length + impact.limits.length > 0 ||
    impact.exposedAgents !== null;

  it('shows a change of every setting of the channel, its files and its peers', async () => {
    const before = await config(BASE);
    const settings = before.channels.a2a;
    // `files` is compared setting by setting, below.
    const channelKeys = Object.keys(settings).filter((key) => key !== 'files');
    const unlisted = [
      ...channelKeys.filter((key) => !(key in CHANNEL_CHANGES)),
      ...Object.keys(settings.files)
        .filter((key) => !(key in FILES_CHANGES))
        .map((key) => `files.${key}`),
      ...Object.keys(settings.peers.hermes)
        .filter((key) => !(key in PEER_CHANGES))
        .map((key) => `peers.*.${key}`),
    ];
    expect(unlisted.map((key) => `channels.a2a.${key}`)).toEqual([]);
    const cases: Array<[string, Record<string, unknown>]> = [
      ...channelKeys.map((key): [string, Record<string, unknown>] => [key, { ...BASE, ...CHANNEL_CHANGES[key] }]),
      ...Object.keys(settings.files).map((key): [string, Record<string, unknown>] => [
        `files.${key}`,
        { ...BASE, files: FILES_CHANGES[key] },
      ]),
      ...Object.keys(settings.peers.hermes).map((key): [string, Record<string, unknown>] => [`peers.*.${key}`, PEER_CHANGES[key]]),
    ];
    const hidden: string[] = [];
    for (const [key, candidate] of cases) {
      if (!shows(a2aImpact(before, await config(candidate)))) hidden.push(`channels.a2a.${key}`);
    }
    expect(hidden).toEqual([]);
  });
});
