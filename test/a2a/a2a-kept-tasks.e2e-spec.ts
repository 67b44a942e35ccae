import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { KEPT_TASKS_PER_PEER_REFUSALS } from '../support/kept-tasks-refusals';
import { API_CLIENT } from '../support/admin-client';

/**
 * `channels.a2a.keptTasksPerPeer` as a peer and an operator see it: the cap on a peer's finished tasks
 * (what ListTasks still lists), read at each write, so a reload that lowers it trims the peer when its next
 * task finishes — not before, and not because another peer wrote. A value out of range is refused naming
 * the key, and the running cap stays. See docs/a2a.md#task-store.
 */
const HERMES = 'hermes-token-0123456789abcdef';
const IRIS = 'iris-token-fedcba9876543210';
const KEY = 'channels.a2a.keptTasksPerPeer';

const configWith = (kept: unknown) => `{
  gateway: { reload: { mode: "off" } },
  agents: { list: [{ id: "main", default: true }] },
  channels: { a2a: { enabled: true, keptTasksPerPeer: ${JSON.stringify(kept)},
    peers: { hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" } } } },
}`;

describe('A2A keptTasksPerPeer (e2e)', () => {
  let gw: TestGateway;
  const send = async (token: string, text: string): Promise<string> =>
    ((await a2aRpc(gw.url, token, 'SendMessage', userMessage(text))).result as { task: { id: string } }).task.id;
  const listed = async (token: string) => {
    const page = (await a2aRpc(gw.url, token, 'ListTasks', { pageSize: 100 })).result as {
      tasks: Array<{ id: string }>;
      totalSize: number;
    };
    return { ids: page.tasks.map((t) => t.id), total: page.totalSize };
  };
  const sent: string[] = [];

  beforeAll(async () => {
    gw = await startTestGateway(configWith(4));
  });
  afterAll(() => gw?.stop());

  it("keeps a peer's newest finished tasks up to the cap", async () => {
    for (let i = 0; i < 5; i++) sent.push(await send(HERMES, `hermes ${i}`));
    expect(await listed(HERMES)).toEqual({ ids: sent.slice(1).reverse(), total: 4 });
  });

  it('applies a lowered cap from a reload at the next finished task of that peer', async () => {
    await gw.writeConfig(configWith(2));
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200);
    // Reads and another peer's writes trim nothing.
    expect((await listed(HERMES)).total).toBe(4);
    await send(IRIS, 'iris 0');
    expect((await listed(HERMES)).total).toBe(4);
    sent.push(await send(HERMES, 'hermes 5'));
    expect(await listed(HERMES)).toEqual({ ids: [sent[5], sent[4]], total: 2 });
    expect((await listed(IRIS)).total).toBe(1);
  });

  it.each(KEPT_TASKS_PER_PEER_REFUSALS)('refuses %j on validate, naming the key', async (value, message) => {
    const res = await request(gw.url)
      .post('/admin/config/validate')
      .set('Content-Type', 'application/json5')
      .send(configWith(value))
      .expect(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: KEY, message })]);
  });

  it('refuses a reload with a cap of 0, and the running cap stays', async () => {
    await gw.writeConfig(configWith(0));
    const res = await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: KEY, message: 'must not be less than 1 (got 0)' })]);
    sent.push(await send(HERMES, 'hermes 6'));
    expect(await listed(HERMES)).toEqual({ ids: [sent[6], sent[5]], total: 2 });
    await request(gw.url).get('/healthz').expect(200);
  });
});
