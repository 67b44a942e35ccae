import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { CliBuild, transpileCli } from '../fixtures/cli-runner';
import { GatewayProcess } from '../fixtures/gateway-process';
import { startTestGateway, waitFor } from '../support/gateway-harness';
import { freePort } from './support/nginx';
import { startRedis, TestRedis } from './support/redis';

/**
 * Two `clawgate gateway` processes (each its own state dir) coordinated through one real redis-server: the A2A
 * per-peer limit is one window for both, each lists the other in GET /admin/cluster with its config revision, a
 * replica that stops cleanly leaves at once and one killed leaves after its TTL, and /readyz follows Redis.
 */

const PEER_TOKEN = 'cluster-peer-token-5c1e';
const IRIS_TOKEN = 'cluster-iris-token-77d0';
const REDIS_PASSWORD = 'cluster-redis-pass-9f3b';
const LIMITED = { code: -32000, message: 'Peer is rate limited' };

const configText = (redisUrl: string, agentName: string, rateLimitPerMinute = 10) => `{
  gateway: { reload: { debounceMs: 50 }, cluster: { redis: { url: "${redisUrl}", password: "\${REDIS_PASSWORD}" } } },
  agents: { list: [{ id: "main", name: "${agentName}" }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: ${rateLimitPerMinute}, peers: { hermes: { token: "${PEER_TOKEN}" }, iris: { token: "${IRIS_TOKEN}" } } } },
}`;

/** GetTask of an unknown task: cheap, and it takes a slot like any call (answered -32001 while admitted). */
const getTask = async (url: string, id: number, token = PEER_TOKEN) =>
  (
    await request(url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${token}`)
      .send({ jsonrpc: '2.0', id, method: 'GetTask', params: { id: 'none' } })
      .expect(200)
  ).body as { id: number; error?: { code: number; message: string } };

interface ClusterBody {
  mode: string;
  self: string;
  redis?: { address: string; reachable: boolean; error?: string };
  replicas: Array<{
    id: string;
    pid: number;
    configRevision: string;
    version: string;
    host: string;
    startedAt: string;
    heartbeatAt: string;
  }>;
}
const cluster = async (url: string) => (await request(url).get('/admin/cluster').expect(200)).body as ClusterBody;
const revisionOf = async (url: string) => (await request(url).get('/readyz').expect(200)).body.revision as string;

describe('cluster coordination through a real Redis (system)', () => {
  let redis: TestRedis;
  let build: CliBuild;
  let dir: string;
  const gateways: GatewayProcess[] = [];

  async function startReplica(
    name: string,
    redisUrl = redis.url,
    password = REDIS_PASSWORD,
  ): Promise<GatewayProcess & { configPath: string }> {
    const home = path.join(dir, name);
    await fs.mkdir(home, { recursive: true });
    const configPath = path.join(home, 'openclaw.json');
    await fs.writeFile(configPath, configText(redisUrl, name));
    const gateway = await GatewayProcess.start({
      cliJs: build.cliJs,
      configPath,
      stateDir: path.join(home, 'state'),
      home,
      env: { REDIS_PASSWORD: password },
    });
    gateways.push(gateway);
    return Object.assign(gateway, { configPath });
  }

  beforeAll(async () => {
    redis = await startRedis({ password: REDIS_PASSWORD });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-cluster-'));
    build = await transpileCli();
  }, 60_000);
  afterAll(async () => {
    for (const g of gateways) await g.kill9();
    await build?.remove();
    await redis?.destroy();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  let a: GatewayProcess & { configPath: string };
  let b: GatewayProcess & { configPath: string };

  it('two replicas list each other with their config revisions; one on an older revision shows it', async () => {
    [a, b] = await Promise.all([startReplica('a'), startReplica('b')]);
    for (const g of [a, b]) {
      const body = await cluster(g.url);
      expect(body.mode).toBe('cluster');
      expect(body.redis).toEqual({ address: `127.0.0.1:${redis.port}`, reachable: true });
      expect(body.replicas.map((r) => r.pid).sort()).toEqual([a.pid, b.pid].sort());
    }
    const before = await revisionOf(b.url);
    await fs.writeFile(b.configPath, configText(redis.url, 'b renamed'));
    const after = await waitFor(
      'b to serve a new revision',
      async () => ((await revisionOf(b.url)) !== before ? revisionOf(b.url) : undefined),
      10_000,
    );
    // The new revision reaches Redis right after the swap, not only at the next heartbeat.
    const seenFromA = await waitFor(
      'a to see b on its new revision',
      async () => {
        const replicas = (await cluster(a.url)).replicas;
        return replicas.find((r) => r.pid === b.pid)?.configRevision === after ? replicas : undefined;
      },
      3_000,
    );
    expect(seenFromA.find((r) => r.pid === a.pid)?.configRevision).toBe(await revisionOf(a.url));
    expect(await revisionOf(a.url)).not.toBe(after);
  }, 120_000);

  it('rateLimitPerMinute 10 is one window for both: the 11th request is limited wherever it lands, as in a single process', async () => {
    const answers = [];
    for (let i = 1; i <= 10; i++) answers.push(await getTask(i % 2 ? a.url : b.url, i));
    expect(answers.map((r) => r.error?.code)).toEqual(Array(10).fill(-32001));
    const eleventh = await getTask(a.url, 11);
    const twelfth = await getTask(b.url, 12);
    expect(eleventh).toEqual({ jsonrpc: '2.0', id: 11, error: LIMITED });
    expect(twelfth).toEqual({ jsonrpc: '2.0', id: 12, error: LIMITED });
    // The HTTP+JSON binding takes from the same window and answers as it does in one process.
    const rest = await request(b.url).get('/a2a/v1/tasks/none').set('Authorization', `Bearer ${PEER_TOKEN}`);
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Peer is rate limited' } });

    // The same answers from a single process (no gateway.cluster) whose limit is used up.
    const single = await startTestGateway(`{
      agents: { list: [{ id: "main" }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 1, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
    }`);
    try {
      expect((await getTask(single.url, 1)).error?.code).toBe(-32001);
      expect(await getTask(single.url, 11)).toEqual(eleventh);
      const singleRest = await request(single.url).get('/a2a/v1/tasks/none').set('Authorization', `Bearer ${PEER_TOKEN}`);
      expect({ status: singleRest.status, body: singleRest.body }).toEqual({ status: rest.status, body: rest.body });
    } finally {
      await single.stop();
    }
  }, 60_000);

  it('a batch takes its slots at once: a replica grants exactly what the shared window has left, in entry order', async () => {
    // Another peer, so its window is fresh: 4 slots taken on b, then a batch of 8 on a.
    for (let i = 1; i <= 4; i++) expect((await getTask(b.url, i, IRIS_TOKEN)).error?.code).toBe(-32001);
    const res = await request(a.url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${IRIS_TOKEN}`)
      .send([1, 2, 3, 4, 5, 6, 7, 8].map((id) => ({ jsonrpc: '2.0', id, method: 'GetTask', params: { id: 'none' } })))
      .expect(200);
    const codes = (res.body as Array<{ id: number; error: { code: number } }>).sort((x, y) => x.id - y.id).map((r) => r.error.code);
    expect(codes).toEqual([-32001, -32001, -32001, -32001, -32001, -32001, -32000, -32000]);
  });

  it('a replica that stops cleanly leaves the list at once', async () => {
    const stopped = await b.stop();
    expect(stopped.clean).toBe(true);
    const replicas = (await cluster(a.url)).replicas;
    expect(replicas.map((r) => r.pid)).toEqual([a.pid]);
  }, 30_000);

  it('a replica killed with SIGKILL stays listed until its TTL runs out, then disappears', async () => {
    const c = await startReplica('c');
    await waitFor('a to see c', async () => (await cluster(a.url)).replicas.some((r) => r.pid === c.pid), 5_000);
    await c.kill9();
    const killedAt = Date.now();
    expect((await cluster(a.url)).replicas.some((r) => r.pid === c.pid)).toBe(true);
    await waitFor('c to expire', async () => !(await cluster(a.url)).replicas.some((r) => r.pid === c.pid), 10_000);
    // Gone no sooner than its last heartbeat's TTL (6 s) minus one heartbeat interval (2 s).
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(3_500);
  }, 60_000);

  it('with Redis stopped, /readyz answers 503 naming Redis and A2A keeps answering on per-replica limits; it recovers when Redis is back', async () => {
    await redis.stop();
    const ready = await waitFor(
      '/readyz to fail',
      async () => {
        const res = await request(a.url).get('/readyz');
        return res.status === 503 ? res : undefined;
      },
      5_000,
    );
    expect(ready.body.detail).toMatch(new RegExp(`^Redis at 127\\.0\\.0\\.1:${redis.port} is unreachable \\(gateway\\.cluster\\): `));
    expect(JSON.stringify(ready.body)).not.toContain(REDIS_PASSWORD);
    const status = await cluster(a.url);
    expect(status.redis?.reachable).toBe(false);
    expect(status.replicas.map((r) => r.pid)).toEqual([a.pid]);
    // Fail open to this replica's own window (docs/decisions.md): the peer is served, and the metric counts it.
    expect((await getTask(a.url, 21)).error?.code).toBe(-32001);
    const metrics = (await request(a.url).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^clawgate_cluster_rate_limit_fallback_total [1-9]/m);

    await redis.start();
    await waitFor('/readyz to recover', async () => (await request(a.url).get('/readyz')).status === 200, 10_000);
    // The restarted Redis is empty: the next heartbeat registers the replica again.
    await waitFor('a to be listed again', async () => (await cluster(a.url)).replicas.some((r) => r.pid === a.pid), 5_000);
    expect(a.errorLogs).toEqual([]);
  }, 60_000);

  it('does not start when Redis does not answer: exit code 69, naming host:port and not the password', async () => {
    const port = await freePort();
    const failed = await startReplica('d', `redis://127.0.0.1:${port}`).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failed?.message).toContain('gateway exited (code 69');
    expect(failed?.message).toContain(`clawgate: cannot reach Redis at 127.0.0.1:${port} (gateway.cluster.redis.url): `);
    expect(failed?.message).not.toContain(REDIS_PASSWORD);
  }, 60_000);

  it('does not start with a wrong password: exit code 69, the refusal of the server named, the password not', async () => {
    const wrong = 'not-the-password-41c9';
    const failed = await startReplica('e', redis.url, wrong).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failed?.message).toContain('gateway exited (code 69');
    expect(failed?.message).toMatch(
      new RegExp(`clawgate: cannot reach Redis at 127\\.0\\.0\\.1:${redis.port} \\(gateway\\.cluster\\.redis\\.url\\): .*WRONGPASS`),
    );
    expect(failed?.message).not.toContain(wrong);
    expect(failed?.message).not.toContain(REDIS_PASSWORD);
  }, 60_000);
});
