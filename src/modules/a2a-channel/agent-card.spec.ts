import { snapshotFrom } from '../../../test/support/config-snapshot';
import type { NormalizedConfig } from '../config/config.types';
import { buildAgentCard, matchesIfNoneMatch, renderAgentCard } from './agent-card';

interface AgentEntry {
  id: string;
  name?: string;
  identity?: { name: string };
}

const agent = (id: string, name?: string): AgentEntry => (name ? { id, identity: { name } } : { id });

const config = async (
  exposeAgents: string[] | null,
  agents = [agent('main'), agent('support', 'Support Bot'), agent('ops', 'Ops')],
): Promise<NormalizedConfig> =>
  (await snapshotFrom({ agents: { list: agents }, channels: { a2a: { exposeAgents: exposeAgents ?? undefined } } })).config;

describe('agent card', () => {
  it('publishes every agent when exposeAgents is unset; name falls back to "clawgate" without an identity name', async () => {
    const card = buildAgentCard(await config(null), 'https://claw.example');
    expect(card.name).toBe('clawgate');
    expect(card.skills.map((s) => s.id)).toEqual(['main', 'support', 'ops']);
    expect(card.skills[1]).toEqual({ id: 'support', name: 'support', description: 'Agent support.', tags: ['clawgate'] });
    // Both bindings at one URL, JSON-RPC first (the preferred one).
    expect(card.supportedInterfaces).toEqual([
      { url: 'https://claw.example/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'https://claw.example/a2a/v1', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ]);
    expect(card.capabilities).toEqual({ streaming: false, pushNotifications: false });
    expect(card.defaultInputModes).toEqual(['text/plain']);
    expect(card.defaultOutputModes).toEqual(['text/plain']);
    expect(card.securitySchemes).toEqual({ bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
  });

  it('publishes only exposed agents, in exposeAgents order, named after the first one; unknown ids are skipped', async () => {
    const card = buildAgentCard(await config(['ghost', 'support', 'ops']), 'http://h:1');
    expect(card.name).toBe('Support Bot');
    expect(card.skills.map((s) => s.id)).toEqual(['support', 'ops']);
  });

  it('never publishes operator text beyond agent ids and the first identity name', async () => {
    const withDescription = [{ ...agent('main', 'M'), name: 'Secret internal codename' }];
    expect(JSON.stringify(buildAgentCard(await config(null, withDescription), 'http://h'))).not.toContain('codename');
  });

  it('renders a stable strong ETag that changes with the origin', async () => {
    const c = await config(null);
    const a = renderAgentCard(c, 'http://a');
    expect(renderAgentCard(c, 'http://a')).toBe(a);
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(renderAgentCard(c, 'http://b').etag).not.toBe(a.etag);
    expect(JSON.parse(a.body).supportedInterfaces[0].url).toBe('http://a/a2a/v1');
  });

  it('matches If-None-Match lists, weak forms and *', () => {
    expect(matchesIfNoneMatch('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"abd"', '"abc"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"abc"')).toBe(false);
  });
});
