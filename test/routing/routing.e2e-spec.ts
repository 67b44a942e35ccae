import request from 'supertest';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

const config = (workAgent: string) => `{
  agents: { list: [{ id: "main", default: true }, { id: "support" }, { id: "ops" }] },
  bindings: [
    { agentId: "${workAgent}", match: { channel: "http", accountId: "work" } },
    // a peer binding without accountId: only the default account
    { agentId: "ops", match: { channel: "http", peer: { kind: "direct", id: "vip" } } },
  ],
  session: { dmScope: "per-channel-peer" },
}`;

describe('routing admin API (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(config('support'));
  });
  afterAll(() => gw.stop());

  const resolve = (body: unknown) =>
    request(gw.url)
      .post('/admin/routing/resolve')
      .send(body as object);

  it('resolves with matchedBy and the matched binding', async () => {
    const vip = await resolve({ channel: 'http', peer: { kind: 'direct', id: 'vip' } }).expect(200);
    expect(vip.body).toEqual({
      agentId: 'ops',
      sessionKey: 'agent:ops:http:direct:vip',
      matchedBy: { tier: 'peer', bindingIndex: 1 },
      binding: { index: 1, agentId: 'ops', match: { channel: 'http', peer: { kind: 'direct', id: 'vip' } } },
    });
    // Same peer on another account: the peer binding needs the default account, the account binding wins.
    const work = await resolve({ channel: 'http', accountId: 'work', peer: { kind: 'direct', id: 'VIP' } }).expect(200);
    expect(work.body).toEqual(
      expect.objectContaining({
        agentId: 'support',
        sessionKey: 'agent:support:http:direct:vip',
        matchedBy: { tier: 'accountId', bindingIndex: 0 },
      }),
    );
    const fallback = await resolve({ channel: 'a2a', accountId: null }).expect(200);
    expect(fallback.body).toEqual({
      agentId: 'main',
      sessionKey: 'agent:main:main',
      matchedBy: { tier: 'default', bindingIndex: null },
      binding: null,
    });
  });

  it.each([
    ['missing channel', { peer: { kind: 'direct', id: 'x' } }, /^channel is required/],
    ['an unknown field', { channel: 'http', acount: 'work' }, /property acount should not exist/],
    ['an unknown nested field', { channel: 'http', peer: { kind: 'direct', id: 'x', name: 'y' } }, /peer\.property name should not exist/],
    [
      'a bad peer kind',
      { channel: 'http', peer: { kind: 'dm', id: 'x' } },
      /peer\.kind must be one of the following values: direct, group, channel/,
    ],
    ['a peer that is not an object', { channel: 'http', peer: 'x' }, /peer must be an object/],
    ['a channel with ":"', { channel: 'a:b' }, /channel must not contain ":"/],
    ['an empty peer id', { channel: 'http', peer: { kind: 'group', id: '' } }, /peer\.id should not be empty/],
  ])('answers %s with a 400 problem+json naming the field', async (_what, body, detail) => {
    const res = await resolve(body).expect(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toEqual(expect.objectContaining({ status: 400, title: 'Bad Request', instance: '/admin/routing/resolve' }));
    expect(res.body.detail).toMatch(detail);
  });

  it('documents the endpoint in the OpenAPI document', async () => {
    const docs = await request(gw.url).get('/docs-json').expect(200);
    const op = docs.body.paths['/admin/routing/resolve']?.post;
    expect(op?.summary).toMatch(/Dry-run routing/);
    expect(Object.keys(op.requestBody.content['application/json'].examples)).toEqual(expect.arrayContaining(['direct', 'guildThread']));
  });

  it('follows a hot reload of the bindings (the cache is dropped)', async () => {
    const inbound = { channel: 'http', accountId: 'work' };
    const before = (await request(gw.url).get('/admin/config/status').expect(200)).body.revision;
    // Twice, so the second answer comes from the warm cache.
    expect((await resolve(inbound).expect(200)).body.agentId).toBe('support');
    expect((await resolve(inbound).expect(200)).body.agentId).toBe('support');

    await gw.writeConfig(config('ops'));
    await waitFor(
      'the new revision',
      async () => {
        const s = (await request(gw.url).get('/admin/config/status')).body;
        return s.revision !== before ? s : undefined;
      },
      3000,
    );

    const after = await resolve(inbound).expect(200);
    expect(after.body).toEqual(
      expect.objectContaining({ agentId: 'ops', sessionKey: 'agent:ops:main', matchedBy: { tier: 'accountId', bindingIndex: 0 } }),
    );
    expect(after.body.binding).toEqual({ index: 0, agentId: 'ops', match: { channel: 'http', accountId: 'work' } });
  });
});
