import { promises as fs } from 'node:fs';
import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * Agent ids that are not canonical as written (a leading `_`, `__proto__`) are normalized once, the same way
 * by the config file and the admin API, so every message routed to them gets a session key and a reply.
 * See docs/configuration.md#6-defaults-ids-and-paths.
 */

const DESK = 'desk-token-0123456789abcdef';
const TEAM = 'team-token-0123456789abcdef';

describe('agent ids that start with an underscore (e2e, echo model)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main", default: true }, { id: "_ops" }] },
      bindings: [{ agentId: "_ops", match: { channel: "http", accountId: "desk" } }],
      channels: { http: { enabled: true, accounts: { desk: { token: "${DESK}" }, team: { token: "${TEAM}" } } } },
    }`);
  });
  afterAll(() => gw.stop());

  const message = (token: string, text: string) =>
    request(gw.url)
      .post('/channels/http/messages')
      .set('Authorization', `Bearer ${token}`)
      .send({ peer: { kind: 'direct', id: 'alice' }, text });
  const etag = async () => (await request(gw.url).get('/admin/config').expect(200)).headers.etag;

  it('answers messages routed to an agent written as "_ops" in the file, under its id ops', async () => {
    const res = await message(DESK, 'hello');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ agentId: 'ops', sessionKey: 'agent:ops:main', reply: '[ops] hello' });
    const agents = (await request(gw.url).get('/admin/agents').expect(200)).body as Array<{ id: string }>;
    expect(agents.map((a) => a.id)).toEqual(['main', 'ops']);
    await request(gw.url).get('/admin/agents/_ops').expect(200);
  });

  it('creates "__proto__" through the admin API as proto__, writes that id, and routes messages to it', async () => {
    const created = await request(gw.url)
      .post('/admin/agents')
      .set('If-Match', await etag())
      .send({ id: '__proto__' })
      .expect(201);
    expect(created.body.agent.id).toBe('proto__');
    expect(await fs.readFile(gw.configPath, 'utf8')).toContain('id: "proto__"');
    await request(gw.url)
      .post('/admin/agents/__proto__/bindings')
      .set('If-Match', await etag())
      .send({ match: { channel: 'http', accountId: 'team' } })
      .expect(201);
    const res = await message(TEAM, 'hi');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ agentId: 'proto__', sessionKey: 'agent:proto__:main', reply: '[proto__] hi' });
  });

  it('refuses the reserved id constructor with 422 naming it, and writes nothing', async () => {
    const before = await fs.readFile(gw.configPath, 'utf8');
    const res = await request(gw.url)
      .post('/admin/agents')
      .set('If-Match', await etag())
      .send({ id: 'constructor' })
      .expect(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ message: 'agent id "constructor" is a reserved name' }));
    expect(await fs.readFile(gw.configPath, 'utf8')).toBe(before);
  });
});
