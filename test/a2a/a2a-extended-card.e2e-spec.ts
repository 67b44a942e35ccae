import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import request from 'supertest';
import { a2aRpc } from '../support/a2a-rpc';
import { fetchWithToken, SeenRequest, sdkClient } from '../support/a2a-sdk';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * GetExtendedAgentCard (docs/a2a.md#extended-agent-card): each authenticated peer sees only the agents its
 * conversations can reach, with identities and the operator's descriptions the public card withholds — over raw
 * JSON-RPC, over HTTP+JSON (GET /a2a/v1/extendedAgentCard), and through the @a2a-js/sdk client, which fetches it on its
 * own once the public card says it exists.
 */

// The SDK's CommonJS build loads jose (ESM-only) for card signatures, which jest's CommonJS sandbox cannot require.
jest.mock('jose', () => ({}));

const HERMES = 'hermes-token-0123456789abcdef';
const IRIS = 'iris-token-fedcba9876543210';
const DESCRIPTIONS = { support: 'Answers customer tickets.', ops: 'Runs deploys and rollbacks.', vault: 'Keeps the secrets ledger.' };

const config = (extraBindings = '') => `{
  gateway: { reload: { mode: "off" } },
  agents: { list: [
    { id: "main", default: true },
    { id: "support", identity: { name: "Support Desk", emoji: "🛟" }, description: "${DESCRIPTIONS.support}" },
    { id: "ops", identity: { name: "Ops" }, description: "${DESCRIPTIONS.ops}" },
    { id: "vault", description: "${DESCRIPTIONS.vault}" },
  ] },
  bindings: [
    { agentId: "support", match: { channel: "a2a", peer: { kind: "direct", id: "hermes" } } },
    { agentId: "ops", match: { channel: "a2a", peer: { kind: "direct", id: "hermes:deploys" } } },
    // vault is not exposed: this context of iris is answered by the first exposed agent instead.
    { agentId: "vault", match: { channel: "a2a", peer: { kind: "direct", id: "iris:ledger" } } },
    ${extraBindings}
  ],
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, exposeAgents: ["main", "support", "ops"],
    peers: { hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" } } } },
}`;

describe('A2A extended Agent Card (e2e)', () => {
  let gw: TestGateway;
  const bodies: string[] = [];
  const card = async (token: string, method = 'GetExtendedAgentCard', params?: unknown) => {
    const answer = await a2aRpc(gw.url, token, method, params);
    bodies.push(JSON.stringify(answer));
    return answer;
  };
  const skills = (c: { skills: Array<{ id: string; name: string; description: string }> }) =>
    c.skills.map((s) => [s.id, s.name, s.description]);

  beforeAll(async () => {
    gw = await startTestGateway(config());
  });
  afterAll(() => gw?.stop());

  it('the public card claims the extended card and withholds descriptions and identities', async () => {
    const res = await request(gw.url).get('/.well-known/agent-card.json').expect(200);
    expect(res.body.capabilities).toEqual({ streaming: true, pushNotifications: true, extendedAgentCard: true });
    expect(res.body.skills.map((s: { id: string }) => s.id)).toEqual(['main', 'support', 'ops']);
    for (const text of [...Object.values(DESCRIPTIONS), '🛟']) expect(res.text).not.toContain(text);
  });

  it('shows each peer only the agents it can reach, named and described', async () => {
    const hermes = (await card(HERMES)).result;
    expect(hermes.name).toBe('Support Desk');
    expect(skills(hermes)).toEqual([
      ['support', '🛟 Support Desk', DESCRIPTIONS.support],
      ['ops', 'Ops', DESCRIPTIONS.ops],
    ]);
    const iris = (await card(IRIS)).result;
    expect(iris.name).toBe('clawgate');
    expect(skills(iris)).toEqual([['main', 'main', 'Agent main.']]);
    // The rest is the public card's, with the endpoint of this gateway.
    expect(hermes.supportedInterfaces).toEqual([
      { url: `${gw.url}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${gw.url}/a2a/v1`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ]);
    expect(hermes.capabilities.extendedAgentCard).toBe(true);
    expect(JSON.stringify(iris)).not.toContain(DESCRIPTIONS.vault);
  });

  it('answers the 0.3 method name and {tenant} params the same way', async () => {
    expect((await card(HERMES, 'agent/getAuthenticatedExtendedCard')).result.skills).toHaveLength(2);
    expect((await card(HERMES, 'GetExtendedAgentCard', { tenant: '' })).result.skills).toHaveLength(2);
  });

  it('refuses bad params with -32602 naming them, and an unauthenticated call with the same 401 as any method', async () => {
    expect((await card(HERMES, 'GetExtendedAgentCard', { tenant: 5 })).error).toEqual({
      code: -32602,
      message: 'Invalid params: tenant must be a string',
    });
    expect((await card(HERMES, 'GetExtendedAgentCard', ['x'])).error).toEqual({
      code: -32602,
      message: 'Invalid params: params must be an object',
    });
    for (const auth of [undefined, 'Bearer not-a-peer-token']) {
      let req = request(gw.url).post('/a2a/v1').set('Content-Type', 'application/json');
      if (auth) req = req.set('Authorization', auth);
      const res = await req.send({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard' });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="clawgate a2a"');
      expect(res.text).not.toContain('skills');
    }
    // Still serving.
    expect((await card(IRIS)).result.skills).toHaveLength(1);
  });

  it('follows the live config: a new binding adds the agent to that peer’s card only', async () => {
    await gw.writeConfig(config('{ agentId: "ops", match: { channel: "a2a", peer: { kind: "direct", id: "iris:deploys" } } },'));
    expect((await request(gw.url).post('/admin/config/reload').set(API_CLIENT)).body.status).toBe('applied');
    expect(skills((await card(IRIS)).result).map(([id]) => id)).toEqual(['main', 'ops']);
    expect(skills((await card(HERMES)).result).map(([id]) => id)).toEqual(['support', 'ops']);
    await gw.writeConfig(config());
    expect((await request(gw.url).post('/admin/config/reload').set(API_CLIENT)).body.status).toBe('applied');
  });

  it('the @a2a-js/sdk client fetches it on its own; two peers see different agent lists', async () => {
    const clientOf = (token: string) => {
      const fetchWithToken: typeof fetch = (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('Authorization', `Bearer ${token}`);
        return fetch(input, { ...init, headers });
      };
      const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithToken })],
      });
      return new ClientFactory(options).createFromUrl(gw.url);
    };
    const hermes = await (await clientOf(HERMES)).getAgentCard();
    const iris = await (await clientOf(IRIS)).getAgentCard();
    expect(hermes.capabilities?.extendedAgentCard).toBe(true);
    expect(hermes.skills.map((s) => [s.id, s.name, s.description])).toEqual([
      ['support', '🛟 Support Desk', DESCRIPTIONS.support],
      ['ops', 'Ops', DESCRIPTIONS.ops],
    ]);
    expect(iris.skills.map((s) => s.id)).toEqual(['main']);
  });

  it('over HTTP+JSON: GET /a2a/v1/extendedAgentCard answers the same card; the SDK REST transport fetches it there', async () => {
    const rest = (path: string, token: string | null = HERMES) => {
      const req = request(gw.url).get(`/a2a/v1${path}`);
      return token === null ? req : req.set('Authorization', `Bearer ${token}`);
    };
    for (const token of [HERMES, IRIS]) {
      const res = await rest('/extendedAgentCard', token);
      bodies.push(res.text);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/a2a+json');
      expect(res.body).toEqual((await card(token)).result);
    }
    expect((await rest('/acme/extendedAgentCard')).body.skills).toHaveLength(2);
    const anonymous = await rest('/extendedAgentCard', null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain('skills');
    // A 0.3 declaration is refused: this binding speaks 1.0 only (JSON-RPC answers 0.3).
    const v03 = await rest('/extendedAgentCard').set('A2A-Version', '0.3');
    expect(v03.status).toBe(400);
    expect(v03.body.error.details[0]).toMatchObject({ reason: 'VERSION_NOT_SUPPORTED', metadata: { supportedVersions: '1.0' } });

    const seen: SeenRequest[] = [];
    const viaRest = await (await sdkClient(gw.url, fetchWithToken(HERMES, seen), 'HTTP+JSON')).getAgentCard();
    expect(viaRest.skills.map((s) => s.id)).toEqual(['support', 'ops']);
    expect(seen.map((r) => r.url)).toContain(`${gw.url}/a2a/v1/extendedAgentCard`);
  });

  afterAll(() => {
    for (const token of [HERMES, IRIS]) expect(bodies.join('\n')).not.toContain(token);
  });
});
