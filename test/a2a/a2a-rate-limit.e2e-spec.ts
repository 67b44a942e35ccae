import request from 'supertest';
import { A2A_CLOCK, Clock } from '../../src/modules/a2a-channel/model/clock';
import type { RateLimitWindows } from '../../src/common/rate-limit/rate-limit-windows';
import { RATE_LIMITER } from '../../src/modules/a2a-channel/operations/operations.service';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Per-peer sliding-window rate limit on a real gateway whose clock the test steers: no sleeps.
 * See docs/a2a.md#limits-and-errors.
 */

const HERMES = 'hermes-token-rate-0001';
const IRIS = 'iris-token-rate-000002';

const config = (limit: number, peers = `hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" }`) => `{
  agents: { list: [{ id: "main" }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: ${limit}, peers: { ${peers} } } },
}`;

describe('A2A per-peer rate limit (e2e, controlled clock)', () => {
  let gw: TestGateway;
  let now = 1_000_000;

  const getTask = (token: string, id: unknown = 1) =>
    request(gw.url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${token}`)
      .send({ jsonrpc: '2.0', id, method: 'GetTask', params: { id: 'none' } });
  const limited = { code: -32000, message: 'Peer is rate limited' };

  beforeAll(async () => {
    gw = await startTestGateway(config(5));
    jest.spyOn(gw.app.get<Clock>(A2A_CLOCK), 'now').mockImplementation(() => now);
  });
  afterAll(() => gw?.stop());

  it('the 6th entry within 60 s is limited with -32000 and HTTP 200; entries age out after 60 s', async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await getTask(HERMES, i);
      expect(res.status).toBe(200);
      expect(res.body.error.code).toBe(-32001); // served (unknown task), not limited
      now += 1_000; // t = 1 s .. 5 s
    }
    const sixth = await getTask(HERMES, 6);
    expect(sixth.status).toBe(200);
    expect(sixth.body).toEqual({ jsonrpc: '2.0', id: 6, error: limited });
    // Other peers have their own window.
    expect((await getTask(IRIS)).body.error.code).toBe(-32001);

    now += 55_000; // t = 60 s: the first entry (t = 0) is 60 s old and out; the others are not
    expect((await getTask(HERMES, 7)).body.error.code).toBe(-32001);
    expect((await getTask(HERMES, 8)).body.error).toEqual(limited);
    now += 4_000; // t = 64 s: all of t = 1..4 s have aged out
    for (let i = 0; i < 4; i++) expect((await getTask(HERMES, 9 + i)).body.error.code).toBe(-32001);
    expect((await getTask(HERMES, 13)).body.error).toEqual(limited);
  });

  it('counts invalid entries and every batch entry; a limited batch entry gets its own error', async () => {
    now += 120_000;
    const bad = await request(gw.url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${HERMES}`)
      .set('Content-Type', 'application/json')
      .send('{oops');
    expect(bad.body.error.code).toBe(-32700);
    const batch = Array.from({ length: 6 }, (_, i) =>
      i === 1 ? { not: 'a request' } : { jsonrpc: '2.0', id: i, method: 'GetTask', params: { id: 'x' } },
    );
    const res = await request(gw.url).post('/a2a/v1').set('Authorization', `Bearer ${HERMES}`).send(batch);
    expect(res.body.map((e: { error: { code: number; message: string } }) => e.error.message)).toEqual([
      'Task not found',
      'Invalid Request',
      'Task not found',
      'Task not found',
      'Peer is rate limited',
      'Peer is rate limited',
    ]);
  });

  it('one window per peer across both bindings: an HTTP+JSON request takes a slot, and gets 429 when none is left', async () => {
    now += 120_000;
    const restGet = () => request(gw.url).get('/a2a/v1/tasks/none').set('Authorization', `Bearer ${HERMES}`);
    for (let i = 1; i <= 3; i++) expect((await getTask(HERMES, i)).body.error.code).toBe(-32001);
    for (let i = 0; i < 2; i++) expect((await restGet()).status).toBe(404); // served: unknown task
    const refused = await restGet();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Peer is rate limited' } });
    expect((await getTask(HERMES, 4)).body.error).toEqual(limited);
    // An unauthenticated request is refused before the limiter: it takes no slot of anyone's.
    expect((await request(gw.url).get('/a2a/v1/tasks/none')).status).toBe(401);
    expect((await request(gw.url).get('/a2a/v1/tasks/none').set('Authorization', `Bearer ${IRIS}`)).status).toBe(404);
  });

  it('applies a changed limit live and drops the windows of removed peers (hot reload)', async () => {
    now += 120_000;
    const limiter = gw.app.get<RateLimitWindows>(RATE_LIMITER);
    expect(limiter.keys().sort()).toEqual(['hermes', 'iris']);
    await gw.writeConfig(config(2, `hermes: { token: "${HERMES}" }`));
    await waitFor('iris window dropped', async () => !limiter.keys().includes('iris'), 10_000);
    expect((await getTask(HERMES, 1)).body.error.code).toBe(-32001);
    expect((await getTask(HERMES, 2)).body.error.code).toBe(-32001);
    expect((await getTask(HERMES, 3)).body.error).toEqual(limited);
    // Limit 0 switches the limiter off (the batch cap still holds).
    await gw.writeConfig(config(0, `hermes: { token: "${HERMES}" }`));
    await waitFor('limit off', async () => (await getTask(HERMES, 4)).body.error.code === -32001, 10_000);
    for (let i = 0; i < 10; i++) expect((await getTask(HERMES, 10 + i)).body.error.code).toBe(-32001);
  });
});
