import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { LogLines } from '../support/log-lines';

/**
 * A refused credential at any edge — an A2A peer token, an http channel account, an OpenAI-compatible key, the
 * admin API — is what an operator needs to see (a peer still using a revoked token, someone guessing): a warning
 * naming the edge and the client's address, at most one a minute per address, never the credential sent; and every
 * refusal counted in clawgate_auth_refusals_total{edge,reason}.
 */

const ADMIN = 'admin-token-refusals-000001';
const PEER = 'peer-token-refusals-0000001';
const DESK = 'desk-token-refusals-0000001';
const KEY = 'openai-key-refusals-0000001';
const WRONG = 'wrong-token-never-logged-0001';

const config = `{
  agents: { list: [{ id: "main" }] },
  gateway: {
    admin: { tokens: [{ name: "ops", token: "${ADMIN}", role: "admin" }] },
    http: { endpoints: { chatCompletions: { enabled: true, keys: [{ name: "desk", token: "${KEY}", agents: ["*"] }] } } },
  },
  channels: {
    http: { enabled: true, accounts: { desk: { token: "${DESK}" } } },
    a2a: { enabled: true, peers: { partner: { token: "${PEER}" } } },
  },
}`;

interface LogLine {
  level: number;
  event?: string;
  edge?: string;
  reason?: string;
  address?: string;
  suppressed?: number;
  msg: string;
}

/** Each edge, asked with `auth` (undefined: no Authorization header) as a client of that edge would. */
const EDGES: Record<string, (gw: TestGateway, auth?: string) => request.Test> = {
  a2a: (gw, auth) =>
    withAuth(
      request(gw.url)
        .post('/a2a/v1')
        .send({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
      auth,
    ),
  'a2a (HTTP+JSON)': (gw, auth) => withAuth(request(gw.url).get('/a2a/v1/tasks/x'), auth),
  http: (gw, auth) => withAuth(request(gw.url).post('/channels/http/messages').send({ text: 'hi' }), auth),
  openai: (gw, auth) => withAuth(request(gw.url).get('/v1/models'), auth),
  admin: (gw, auth) => withAuth(request(gw.url).get('/admin/agents'), auth),
};
const withAuth = (req: request.Test, auth?: string) => (auth === undefined ? req : req.set('Authorization', auth));

describe('refused credentials are warned about and counted (e2e)', () => {
  const log = new LogLines();
  let gw: TestGateway;
  const refusalLines = () => log.lines.map((l) => JSON.parse(l) as LogLine).filter((l) => l.event === 'auth.refused');

  beforeAll(async () => {
    gw = await startTestGateway(config, { log: { logFormat: 'json', logLevel: 'info', logTarget: log } });
  });
  afterAll(() => gw?.stop());

  it('every edge answers 401 to a wrong token three times and writes one warning naming the edge and address, not the token', async () => {
    for (const ask of Object.values(EDGES)) {
      for (let i = 0; i < 3; i++) expect((await ask(gw, `Bearer ${WRONG}`)).status).toBe(401);
    }
    const lines = refusalLines();
    // Both A2A bindings are one edge, and one address: one line for the six refusals.
    expect(lines.map((l) => l.edge).sort()).toEqual(['a2a', 'admin', 'http', 'openai']);
    for (const line of lines) {
      expect(line.level).toBe(40);
      expect(line.reason).toBe('invalid');
      expect(line.address).toMatch(/127\.0\.0\.1|::1/);
      expect(line.msg).toContain(`from ${line.address} refused: the credential matches no`);
    }
    expect(lines.find((l) => l.edge === 'a2a')?.msg).toContain('channels.a2a.peers');
    expect(lines.find((l) => l.edge === 'http')?.msg).toContain('channels.http.accounts');
    expect(lines.find((l) => l.edge === 'openai')?.msg).toContain('gateway.http.endpoints.chatCompletions.keys');
    expect(lines.find((l) => l.edge === 'admin')?.msg).toContain('gateway.admin.tokens');
    expect(log.lines.join('\n')).not.toContain(WRONG);
  });

  it('counts every refusal by edge and reason, a missing credential apart from a wrong one', async () => {
    for (const ask of Object.values(EDGES)) expect((await ask(gw)).status).toBe(401);
    const metrics = (await request(gw.url).get('/metrics')).text;
    const count = (edge: string, reason: string) =>
      Number(new RegExp(`^clawgate_auth_refusals_total\\{edge="${edge}",reason="${reason}"\\} (\\d+)$`, 'm').exec(metrics)?.[1]);
    expect(count('a2a', 'invalid')).toBe(6);
    expect(count('a2a', 'missing')).toBe(2);
    for (const edge of ['http', 'openai', 'admin']) {
      expect(count(edge, 'invalid')).toBe(3);
      expect(count(edge, 'missing')).toBe(1);
    }
    // Still within the minute: the missing credentials of the same address wrote no new line.
    expect(refusalLines()).toHaveLength(4);
  });

  it('a credential that works is neither warned about nor counted', async () => {
    expect((await EDGES.admin(gw, `Bearer ${ADMIN}`)).status).toBe(200);
    expect((await EDGES.openai(gw, `Bearer ${KEY}`)).status).toBe(200);
    const metrics = (await request(gw.url).get('/metrics')).text;
    expect(metrics).toContain('clawgate_auth_refusals_total{edge="admin",reason="invalid"} 3');
    expect(metrics).toContain('clawgate_auth_refusals_total{edge="openai",reason="invalid"} 3');
  });
});
