import Redis from 'ioredis';
import { InProcessRateLimitWindows } from '../../src/common/rate-limit/rate-limit-windows';
import { SlidingWindowRateLimiter } from '../../src/common/rate-limit/sliding-window-rate-limiter';
import { RedisLaneLeases } from '../../src/modules/cluster/redis-lane-leases';
import { RedisRateLimitWindows } from '../../src/modules/cluster/redis-rate-limit-windows';
import { startRedis, TestRedis } from './support/redis';

/**
 * Two replicas' coordination objects on one real Redis, without gateways around them: the rate-limit slots taken
 * in blocks never exceed the shared limit and end at exactly the limit, with far fewer script calls than requests;
 * lane leases asked for together go out in one call, keep their tokens increasing and are all given back.
 */
const LIMIT = 400;
const WINDOW_MS = 60_000;

async function scriptCalls(client: Redis): Promise<number> {
  const text = await client.info('commandstats');
  return Number(/^cmdstat_evalsha:calls=(\d+)/m.exec(text)?.[1] ?? 0) + Number(/^cmdstat_eval:calls=(\d+)/m.exec(text)?.[1] ?? 0);
}

describe('rate-limit slots in blocks and batched lane leases on a real Redis (system)', () => {
  let redis: TestRedis;
  const clients: Redis[] = [];
  const connect = () => {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await redis?.destroy();
  });

  const windows = (replicaId: string) =>
    new RedisRateLimitWindows(connect(), {
      namespace: 'spec',
      replicaId,
      address: 'test',
      fallback: new InProcessRateLimitWindows(new SlidingWindowRateLimiter({ now: () => Date.now() })),
      fallbacks: { inc: () => fail('no fallback expected: Redis is up') },
    });

  it('two replicas sharing a limit of 400 admit exactly 400, never more, with a script call per block rather than per request while far from the limit', async () => {
    const [a, b] = [windows('a'), windows('b')];
    const observer = connect();
    const before = await scriptCalls(observer);
    let admitted = 0;
    const round = async (requests: number) => {
      for (let i = 0; i < requests; i++) {
        admitted += await (i % 2 ? b : a).take('peer', 1, LIMIT, WINDOW_MS);
        expect(admitted).toBeLessThanOrEqual(LIMIT);
      }
    };
    await round(300);
    // Well inside the limit: one call per block, the blocks growing to 20 slots (a 20th of the limit).
    expect((await scriptCalls(observer)) - before).toBeLessThan(300 / 4);
    await round(300);
    // Slots still held when the load stopped are given back once their hold is up; then the rest can be had.
    for (const deadline = Date.now() + 10_000; (await observer.zcard('clawgate:ratelimit:spec:peer')) !== admitted;) {
      if (Date.now() > deadline) throw new Error('held slots were never given back');
      await new Promise((r) => setTimeout(r, 100));
    }
    await round(100);
    expect(admitted).toBe(LIMIT);
  }, 60_000);

  it('lane leases asked for at once go out together, with increasing tokens, and are all given back', async () => {
    const client = connect();
    const fallbacks = { inc: () => fail('no fallback expected: Redis is up') };
    const a = new RedisLaneLeases(client, { replicaId: 'replica-a', address: 'test', fallbacks });
    const b = new RedisLaneLeases(connect(), { replicaId: 'replica-b', address: 'test', fallbacks });
    const before = await scriptCalls(client);
    const held = await Promise.all(Array.from({ length: 50 }, (_, i) => a.acquire(`main:s${i}`)));
    expect((await scriptCalls(client)) - before).toBeLessThanOrEqual(3);
    expect(new Set(held.map((l) => l.token)).size).toBe(50);

    // b waits for a lane a holds and gets it, under a larger token, once a gives it back.
    const waiting = b.acquire('main:s7');
    let got = false;
    void waiting.then(() => (got = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(got).toBe(false);
    await Promise.all(held.map((l) => l.release()));
    const taken = await waiting;
    expect(taken.token).toBeGreaterThan(Math.max(...held.map((l) => l.token)));
    expect(await client.get('clawgate:lane:main:s7')).toBe(`replica-b#${taken.token}`);
    await taken.release();
    for (const deadline = Date.now() + 5_000; (await client.keys('clawgate:lane:*')).length;) {
      if (Date.now() > deadline) throw new Error('leases were not given back');
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 60_000);
});
