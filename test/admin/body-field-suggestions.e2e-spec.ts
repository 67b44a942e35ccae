import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * A misspelt field in a request body is refused like an unknown one, with the field it was probably meant to be —
 * as the config's own errors do: the http channel's messages and the admin API's bodies, nested fields included.
 */

const DESK = 'desk-token-suggestions-0001';

describe('did-you-mean for misspelt body fields (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(`{
      agents: { list: [{ id: "main", default: true }] },
      channels: { http: { enabled: true, accounts: { desk: { token: "${DESK}" } } } },
    }`);
  });
  afterAll(() => gw?.stop());

  const message = (body: object) => request(gw.url).post('/channels/http/messages').set('Authorization', `Bearer ${DESK}`).send(body);

  it('the http channel names the field a misspelt one was meant to be, at the top and nested', async () => {
    const res = await message({ peer: { knd: 'direct', id: 'alice' }, txet: 'hi' });
    expect(res.status).toBe(400);
    const messages = (res.body.errors as { message: string }[]).map((e) => e.message);
    expect(messages).toContain('property txet should not exist (did you mean "text"?)');
    expect(messages).toContain('peer.property knd should not exist (did you mean "kind"?)');
  });

  it('a field far from every declared one gets no guess', async () => {
    const res = await message({ peer: { kind: 'direct', id: 'alice' }, text: 'hi', zzzzzzzzzz: 1 });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('property zzzzzzzzzz should not exist');
  });

  it('the admin API does the same', async () => {
    const etag = (await request(gw.url).get('/admin/config').expect(200)).headers.etag;
    const res = await request(gw.url).post('/admin/agents').set('If-Match', etag).send({ id: 'helper', modle: 'echo/x' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('property modle should not exist (did you mean "model"?)');
  });
});
