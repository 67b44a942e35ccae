import { snapshotFrom } from '../../../../test/support/config-snapshot';
import type { NormalizedConfig } from '../../config/config.types';
import { buildAgentCard, matchesIfNoneMatch, renderAgentCard } from './agent-card';

interface AgentEntry {
  id: string;
  name?: string;
  description?: string;
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
    expect(card.capabilities).toEqual({ streaming: true, pushNotifications: true, extendedAgentCard: true });
    // Text, and the file media types channels.a2a.files accepts by default.
    expect(card.defaultInputModes).toEqual(['text/plain', 'text/*', 'application/json']);
    expect(card.defaultOutputModes).toEqual(['text/plain']);
    expect(card.securitySchemes).toEqual({ bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
  });

  it('publishes only exposed agents, in exposeAgents order, named after the first one; unknown ids are skipped', async () => {
    const card = buildAgentCard(await config(['ghost', 'support', 'ops']), 'http://h:1');
    expect(card.name).toBe('Support Bot');
    expect(card.skills.map((s) => s.id)).toEqual(['support', 'ops']);
  });

  it('never publishes operator text beyond agent ids and the first identity name', async () => {
    const withDescription = [{ ...agent('main', 'M'), name: 'Secret internal codename', description: 'Handles the payroll codename' }];
    expect(JSON.stringify(buildAgentCard(await config(null, withDescription), 'http://h'))).not.toContain('codename');
  });

  it('lists the media types the operator accepts as input modes', async () => {
    const c = (await snapshotFrom({ channels: { a2a: { files: { mediaTypes: ['text/plain', 'image/png'] } } } })).config;
    expect(buildAgentCard(c, 'http://h').defaultInputModes).toEqual(['text/plain', 'image/png']);
  });

  it('renders a stable strong ETag that changes with the origin', async () => {
    const c = await config(null);
    const a = renderAgentCard(c, 'http://a');
    expect(renderAgentCard(c, 'http://a')).toBe(a);
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(renderAgentCard(c, 'http://b').etag).not.toBe(a.etag);
    expect(JSON.parse(a.body).supportedInterfaces[0].url).toBe('http://a/a2a/v1');
  });

  it('renders the same card in its 0.3 form: main url, preferred transport, 0.3 security spelling', async () => {
    const c = await config(['support']);
    const v10 = renderAgentCard(c, 'https://claw.example');
    expect(JSON.parse(v10.body).supportedInterfaces.map((i: { protocolBinding: string }) => i.protocolBinding)).toEqual([
      'JSONRPC',
      'HTTP+JSON',
    ]);
    const v03 = renderAgentCard(c, 'https://claw.example', '0.3');
    expect(renderAgentCard(c, 'https://claw.example', '0.3')).toBe(v03);
    expect(v03.etag).not.toBe(v10.etag);
    expect(JSON.parse(v03.body)).toEqual({
      protocolVersion: '0.3.0',
      name: 'Support Bot',
      description: buildAgentCard(c, 'x').description,
      version: buildAgentCard(c, 'x').version,
      url: 'https://claw.example/a2a/v1',
      preferredTransport: 'JSONRPC',
      // Not the HTTP+JSON interface of the 1.0 card: that binding does not answer 0.3 clients.
      additionalInterfaces: [{ url: 'https://claw.example/a2a/v1', transport: 'JSONRPC' }],
      capabilities: { streaming: true, pushNotifications: true, stateTransitionHistory: false },
      defaultInputModes: ['text/plain', 'text/*', 'application/json'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'support', name: 'support', description: 'Agent support.', tags: ['clawgate'] }],
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      security: [{ bearer: [] }],
      supportsAuthenticatedExtendedCard: true,
    });
  });

  it('matches If-None-Match lists, weak forms and *', () => {
    expect(matchesIfNoneMatch('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"abd"', '"abc"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"abc"')).toBe(false);
  });
});
