import { promises as fs } from 'node:fs';
import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * A JSON body with a key the DTO transformation cannot hold (__proto__, constructor, toString, …) is refused
 * with the key's path instead of being written without it — the same rule as for the config file.
 */
describe('admin request bodies with reserved key names (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(`{ agents: { list: [{ id: "main", default: true }] } }`);
  });
  afterAll(() => gw.stop());

  const etag = async () => (await request(gw.url).get('/admin/config').expect(200)).headers.etag;

  it.each([
    ['constructor', '{"id":"x","identity":{"name":"X","constructor":"y"}}', 'identity.constructor'],
    ['__proto__', '{"id":"x","__proto__":{"model":"echo/x"}}', '__proto__'],
    ['toString', '{"id":"x","tools":{"toString":["a"]}}', 'tools.toString'],
  ])('refuses %s with 400 naming its path, and writes nothing', async (_name, body, at) => {
    const before = await fs.readFile(gw.configPath, 'utf8');
    const res = await request(gw.url)
      .post('/admin/agents')
      .set('If-Match', await etag())
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body.errors).toEqual([expect.objectContaining({ path: at, message: expect.stringContaining('reserved key name') })]);
    expect(res.body.detail).toContain(at);
    expect(await fs.readFile(gw.configPath, 'utf8')).toBe(before);
    await request(gw.url).get('/admin/agents/x').expect(404);
  });

  it('still takes the same body without the reserved key', async () => {
    await request(gw.url)
      .post('/admin/agents')
      .set('If-Match', await etag())
      .send({ id: 'x', identity: { name: 'X' } })
      .expect(201);
    expect((await request(gw.url).get('/admin/agents/x').expect(200)).body).toMatchObject({ id: 'x' });
  });
});
