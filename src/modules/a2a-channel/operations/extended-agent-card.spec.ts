import { snapshotFrom } from '../../../../test/support/config-snapshot';
import type { RuntimeSnapshot } from '../../config/config.types';
import { resolveRoute } from '../../routing/route-resolver';
import { reachableAgents } from '../tasks/session-route';
import { buildAgentCard } from '../card/agent-card';
import { buildExtendedAgentCard } from './extended-agent-card';

const AGENTS = [
  { id: 'main', default: true },
  { id: 'support', identity: { name: 'Support Desk', emoji: '🛟' }, description: 'Answers customer tickets.' },
  { id: 'ops', identity: { name: 'Ops' }, description: 'Runs deploys.' },
  { id: 'vault', description: 'Internal only.' },
];

const snapshot = (bindings: unknown[] = [], exposeAgents?: string[]): Promise<RuntimeSnapshot> =>
  snapshotFrom({ agents: { list: AGENTS }, bindings, channels: { a2a: { exposeAgents } } });

const reach = (s: RuntimeSnapshot, peer: string) => reachableAgents(s, (inbound) => resolveRoute(s.config, inbound), peer).map((a) => a.id);
const peerBinding = (agentId: string, id: string, extra: Record<string, unknown> = {}) => ({
  agentId,
  match: { channel: 'a2a', peer: { kind: 'direct', id }, ...extra },
});

describe('reachableAgents', () => {
  it('is the default agent for a peer without bindings, and the bound agent for a peer with a bare binding', async () => {
    const s = await snapshot([peerBinding('support', 'hermes')]);
    expect(reach(s, 'iris')).toEqual(['main']);
    expect(reach(s, 'hermes')).toEqual(['support']);
  });

  it('adds the agents of context bindings, in exposeAgents order, and the channel tier for unbound contexts', async () => {
    const s = await snapshot([
      { agentId: 'ops', match: { channel: 'a2a' } },
      peerBinding('support', 'hermes:billing'),
      peerBinding('vault', 'iris:x'),
    ]);
    expect(reach(s, 'hermes')).toEqual(['support', 'ops']);
    expect(reach(s, 'iris')).toEqual(['ops', 'vault']);
  });

  it('ignores bindings a SendMessage can never meet: other accounts, other channels, invalid context ids, later duplicates', async () => {
    const s = await snapshot([
      peerBinding('ops', 'hermes:a', { accountId: 'work' }),
      { agentId: 'ops', match: { channel: 'http', peer: { kind: 'direct', id: 'hermes:b' } } },
      peerBinding('ops', 'hermes:has space'),
      peerBinding('support', 'hermes:c'),
      peerBinding('vault', 'hermes:c'),
      peerBinding('vault', 'hermesx:c'),
    ]);
    expect(reach(s, 'hermes')).toEqual(['main', 'support']);
  });

  it('clamps every route to the exposed agents, as SendMessage does, and reaches nothing without any', async () => {
    const s = await snapshot([peerBinding('vault', 'hermes'), peerBinding('ops', 'hermes:deploys')], ['support', 'ops']);
    expect(reach(s, 'hermes')).toEqual(['support', 'ops']);
    expect(reach(s, 'iris')).toEqual(['support']);
    expect(reach(await snapshot([], ['ghost']), 'hermes')).toEqual([]);
  });
});

describe('buildExtendedAgentCard', () => {
  it('is the public card with the reachable agents as skills, named by identity and described by the operator', async () => {
    const s = await snapshot();
    const agents = s.config.agents.filter((a) => a.id === 'support' || a.id === 'main');
    const card = buildExtendedAgentCard(s.config, 'https://claw.example', agents);
    const pub = buildAgentCard(s.config, 'https://claw.example');
    expect(card).toEqual({
      ...pub,
      name: 'clawgate',
      description: expect.stringContaining('as this peer sees it'),
      skills: [
        { id: 'main', name: 'main', description: 'Agent main.', tags: ['clawgate'] },
        { id: 'support', name: '🛟 Support Desk', description: 'Answers customer tickets.', tags: ['clawgate'] },
      ],
    });
    expect(card.capabilities.extendedAgentCard).toBe(true);
    expect(buildExtendedAgentCard(s.config, 'https://claw.example', agents.slice(1)).name).toBe('Support Desk');
    expect(buildExtendedAgentCard(s.config, 'https://claw.example', []).skills).toEqual([]);
  });
});
