import { createServer } from 'node:net';
import request from 'supertest';
import { ClusterRedisUnreachableError } from '../../src/modules/cluster';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * `gateway.cluster` without a Redis server: what the config refuses (at boot and on reload, the running gateway
 * staying up), what a replica does when its Redis does not answer at start, and the single-process answers of
 * GET /admin/cluster and /readyz. The cluster itself, with a real Redis, is test/system/cluster-redis.system-spec.ts.
 */

const FAST = 'reload: { debounceMs: 50 }';

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('gateway.cluster config (e2e)', () => {
  it.each([
    [
      'an http URL',
      '{ redis: { url: "http://127.0.0.1:6379" } }',
      'gateway.cluster.redis.url: must start with redis:// or rediss:// (TLS) (got "http://127.0.0.1:6379")',
    ],
    [
      'a URL that is not one',
      '{ redis: { url: "localhost 6379" } }',
      'gateway.cluster.redis.url: must be a URL such as "redis://127.0.0.1:6379"',
    ],
    [
      'a password inside the URL',
      '{ redis: { url: "redis://:hunter2@127.0.0.1:6379" } }',
      'gateway.cluster.redis.url: must not contain credentials (user:password@); put the password in gateway.cluster.redis.password',
    ],
    ['a query', '{ redis: { url: "redis://127.0.0.1:6379?family=6" } }', 'gateway.cluster.redis.url: must not have a query or fragment'],
    [
      'a path that is no database number',
      '{ redis: { url: "redis://127.0.0.1:6379/cache" } }',
      'gateway.cluster.redis.url: the path must be a database number',
    ],
    ['a number as the URL', '{ redis: { url: 6379 } }', 'gateway.cluster.redis.url: must be a string (got 6379)'],
    ['no URL', '{ redis: {} }', 'gateway.cluster.redis.url'],
    ['no redis', '{}', 'gateway.cluster.redis'],
    [
      'an empty password',
      '{ redis: { url: "redis://127.0.0.1", password: "" } }',
      'gateway.cluster.redis.password: must be longer than or equal to 1 characters',
    ],
    ['an unknown key', '{ redis: { url: "redis://127.0.0.1" }, sentinel: true }', 'gateway.cluster.sentinel'],
  ])('refuses %s at boot with a message naming the key', async (_what, cluster, message) => {
    await expect(startTestGateway(`{ gateway: { cluster: ${cluster} } }`)).rejects.toThrow(message);
  });

  it('does not start when Redis does not answer, naming host:port and never the password', async () => {
    const port = await closedPort();
    const started = startTestGateway(
      `{ gateway: { cluster: { redis: { url: "redis://127.0.0.1:${port}/3", password: "\${REDIS_PASSWORD}" } } } }`,
      {
        env: { REDIS_PASSWORD: 'pa55-never-shown' },
      },
    );
    const err = (await started.then(
      () => undefined,
      (e: unknown) => e,
    )) as Error;
    expect(err).toBeInstanceOf(ClusterRedisUnreachableError);
    expect(err.message).toMatch(
      new RegExp(`^cannot reach Redis at 127\\.0\\.0\\.1:${port} \\(gateway\\.cluster\\.redis\\.url\\): .*ECONNREFUSED`),
    );
    expect(err.message).not.toContain('pa55-never-shown');
  });

  describe('a single process', () => {
    let gw: TestGateway;
    const config = (cluster: string) => `{ gateway: { ${FAST}${cluster} }, agents: { list: [{ id: "main" }] } }`;
    beforeAll(async () => {
      gw = await startTestGateway(config(''));
    });
    afterAll(() => gw?.stop());

    it('GET /admin/cluster names itself alone, with the revision it serves; /readyz does not need Redis', async () => {
      const revision = (await request(gw.url).get('/readyz').expect(200)).body.revision;
      const res = await request(gw.url).get('/admin/cluster').expect(200);
      expect(res.body).toEqual({
        mode: 'single',
        self: expect.any(String),
        replicas: [
          {
            id: res.body.self,
            version: expect.any(String),
            pid: process.pid,
            host: expect.any(String),
            startedAt: expect.any(String),
            configRevision: revision,
            heartbeatAt: expect.any(String),
          },
        ],
      });
    });

    it('a bad cluster key in a reload is rejected naming it; the gateway keeps serving', async () => {
      await gw.writeConfig(config(', cluster: { redis: { url: "http://redis:6379" } }'));
      const rejected = await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(422);
      expect(JSON.stringify(rejected.body)).toContain('gateway.cluster.redis.url');
      expect(JSON.stringify(rejected.body)).toContain('must start with redis:// or rediss://');
      await request(gw.url).get('/readyz').expect(200);
    });

    it('setting it on a running gateway waits for a restart (pendingRestart) and changes nothing until then', async () => {
      await gw.writeConfig(config(', cluster: { redis: { url: "redis://127.0.0.1:1" } }'));
      const status = await waitFor('the reload', async () => {
        const res = await request(gw.url).get('/admin/config/status').expect(200);
        return res.body.pendingRestart.length ? res.body : undefined;
      });
      expect(status.pendingRestart).toEqual(['gateway.cluster.redis.url']);
      expect((await request(gw.url).get('/admin/cluster').expect(200)).body.mode).toBe('single');
      await request(gw.url).get('/readyz').expect(200);
      await gw.writeConfig(config(''));
      await waitFor('pendingRestart cleared', async () => {
        const res = await request(gw.url).get('/admin/config/status').expect(200);
        return res.body.pendingRestart.length === 0;
      });
    });
  });
});
