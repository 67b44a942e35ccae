import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

const CONFIG = `{
  // Agents of the test gateway. This comment must survive every write.
  agents: {
    list: [
      { id: "main", default: true }, // the operator's own agent
      { id: "support", name: "Support" },
    ],
  },
  /* routing */
  bindings: [
    { agentId: "support", match: { channel: "http", accountId: "desk" } },
  ],
}
`;

describe('agents admin API (e2e)', () => {
  let gw: TestGateway;
  beforeEach(async () => {
    gw = await startTestGateway(CONFIG);
  });
  afterEach(() => gw.stop());

  const etag = async () => (await request(gw.url).get('/admin/config').expect(200)).headers.etag;
  const fileText = () => fs.readFile(gw.configPath, 'utf8');

  it('creates an agent with the current ETag: file edited in place, comments kept, applied at once', async () => {
    const res = await request(gw.url)
      .post('/admin/agents')
      .set('If-Match', await etag())
      .send({ id: 'Coding Bot', name: 'Coder', model: 'echo/default', identity: { emoji: '💻' } })
      .expect(201);
    expect(res.body.agent).toMatchObject({ id: 'coding-bot', name: 'Coder', identity: { emoji: '💻' } });
    expect(res.headers.etag).toBe(`"${res.body.revision}"`);
    const text = await fileText();
    for (const comment of [
      '// Agents of the test gateway. This comment must survive every write.',
      "// the operator's own agent",
      '/* routing */',
    ]) {
      expect(text).toContain(comment);
    }
    expect(text).toContain('id: "coding-bot"');
    const got = await request(gw.url).get('/admin/agents/coding-bot').expect(200);
    expect(got.body.workspace).toBe(path.join(gw.stateDir, 'workspace-coding-bot'));
    const status = (await request(gw.url).get('/admin/config/status')).body;
    expect(status.revision).toBe(res.body.revision);
  });

  it('refuses a stale ETag with 412 and a missing one with 428, writing nothing', async () => {
    const before = await fileText();
    const stale = await etag();
    await request(gw.url).patch('/admin/agents/support').set('If-Match', stale).send({ name: 'Desk' }).expect(200);
    const after = await fileText();
    const res = await request(gw.url).post('/admin/agents').set('If-Match', stale).send({ id: 'late' }).expect(412);
    expect(res.headers['content-type']).toContain('application/problem+json');
    await request(gw.url).post('/admin/agents').send({ id: 'late' }).expect(428);
    expect(await fileText()).toBe(after);
    expect(after).not.toBe(before);
  });

  it('refuses an agent whose id collides after normalization with 422 and leaves the file unchanged', async () => {
    const before = await fileText();
    const res = await request(gw.url)
      .post('/admin/agents')
      .set('If-Match', await etag())
      .send({ id: 'SUPPORT' })
      .expect(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ message: expect.stringContaining('duplicate agent id "support"') }));
    expect(await fileText()).toBe(before);
  });

  it('rejects bad bodies with 400 naming the field', async () => {
    const tag = await etag();
    const unknown = await request(gw.url).post('/admin/agents').set('If-Match', tag).send({ id: 'x', modle: 'a/b' }).expect(400);
    expect(unknown.body.detail).toContain('property modle should not exist');
    const badModel = await request(gw.url).post('/admin/agents').set('If-Match', tag).send({ id: 'x', model: 'nomodel' }).expect(400);
    expect(badModel.body.detail).toContain('provider/model');
    await request(gw.url).post('/admin/agents').set('If-Match', tag).send({}).expect(400);
    await request(gw.url).get('/admin/agents/nobody').expect(404);
  });

  it('sets identity, adds and removes bindings, deletes an agent with its bindings', async () => {
    let res = await request(gw.url)
      .put('/admin/agents/support/identity')
      .set('If-Match', await etag())
      .send({ emoji: '🎧' })
      .expect(200);
    expect(res.body.agent.identity).toEqual({ emoji: '🎧' });
    res = await request(gw.url)
      .post('/admin/agents/support/bindings')
      .set('If-Match', await etag())
      .send({ match: { channel: 'http', peer: { kind: 'direct', id: 'vip' } } })
      .expect(201);
    expect(res.body.bindings).toHaveLength(2);
    const all = (await request(gw.url).get('/admin/bindings').expect(200)).body;
    expect(all.map((b: { index: number }) => b.index)).toEqual([0, 1]);
    await request(gw.url)
      .delete('/admin/bindings/0')
      .set(API_CLIENT)
      .set('If-Match', await etag())
      .expect(200);
    expect((await request(gw.url).get('/admin/agents/support/bindings')).body).toEqual([
      { index: 0, agentId: 'support', match: { channel: 'http', peer: { kind: 'direct', id: 'vip' } } },
    ]);
    await request(gw.url)
      .delete('/admin/bindings/7')
      .set(API_CLIENT)
      .set('If-Match', await etag())
      .expect(404);
    await request(gw.url)
      .delete('/admin/agents/support')
      .set(API_CLIENT)
      .set('If-Match', await etag())
      .expect(200);
    expect((await request(gw.url).get('/admin/bindings')).body).toEqual([]);
    await request(gw.url).get('/admin/agents/support').expect(404);
    expect(await fileText()).toContain("// the operator's own agent");
  });
});
