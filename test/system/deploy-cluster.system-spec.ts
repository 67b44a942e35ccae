import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { startTestGateway, type TestGateway } from '../support/gateway-harness';
import { startPostgres, type TestPostgres } from './support/postgres';
import { startRedis, type TestRedis } from './support/redis';

/**
 * The config that deploy/docker-compose.yml and deploy/k8s mount (deploy/openclaw.cluster.json), booted as two
 * replicas on a real PostgreSQL and Redis with only the variables those files provide: both are ready, list each
 * other, a task sent to one is read and listed through the other (what nginx's round-robin relies on), and a
 * replica that stops cleanly leaves the cluster at once. What docker and Kubernetes themselves add is not run here.
 */

const ROOT = path.resolve(__dirname, '../..');
const ADMIN_TOKEN = 'deploy-admin-token-41c9';
const PEER_TOKEN = 'deploy-peer-token-8e27';
const REDIS_PASSWORD = 'deploy-redis-pass-d05a';
// As deployed, except the listener: a test binds loopback only, never every interface.
const CONFIG = readFileSync(path.join(ROOT, 'deploy/openclaw.cluster.json'), 'utf8').replace('bind: "0.0.0.0"', 'bind: "127.0.0.1"');

const admin = (url: string, route: string) => request(url).get(route).set('Authorization', `Bearer ${ADMIN_TOKEN}`);

describe('deploy/openclaw.cluster.json on PostgreSQL and Redis, two replicas', () => {
  let postgres: TestPostgres;
  let redis: TestRedis;
  const replicas: TestGateway[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
    redis = await startRedis({ password: REDIS_PASSWORD });
    const env = {
      DATABASE_URL: await postgres.createDatabase('clawgate'),
      REDIS_URL: `${redis.url}/0`,
      REDIS_PASSWORD,
      CLAWGATE_ADMIN_TOKEN: ADMIN_TOKEN,
      A2A_PEER_TOKEN: PEER_TOKEN,
    };
    // One after the other, as compose starts them (the second finds the migrations applied).
    replicas.push(await startTestGateway(CONFIG, { env }));
    replicas.push(await startTestGateway(CONFIG, { env }));
  }, 60_000);

  afterAll(async () => {
    for (const gw of replicas) await gw.stop().catch(() => undefined);
    await redis?.destroy();
    await postgres?.stop();
  });

  it('both answer the probes the manifests use, and list each other', async () => {
    for (const gw of replicas) {
      await request(gw.url).get('/healthz').expect(200);
      expect((await request(gw.url).get('/readyz').expect(200)).body).toMatchObject({ status: 'ok' });
      const body = (await admin(gw.url, '/admin/cluster').expect(200)).body as { mode: string; replicas: unknown[] };
      expect(body.mode).toBe('cluster');
      expect(body.replicas).toHaveLength(2);
    }
  });

  it('a task sent through one replica is read, listed and found settled through the other', async () => {
    const [first, second] = replicas;
    const sent = await a2aRpc(first.url, PEER_TOKEN, 'SendMessage', userMessage('through the balancer'));
    const task = sent.result?.task;
    expect(task?.status?.state).toBe('TASK_STATE_COMPLETED');
    const got = await a2aRpc(second.url, PEER_TOKEN, 'GetTask', { id: task.id });
    expect(got.result).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_COMPLETED' } });
    const listed = await a2aRpc(second.url, PEER_TOKEN, 'ListTasks', {});
    expect(listed.result.tasks.map((t: { id: string }) => t.id)).toContain(task.id);
    // A wrong token is refused the same way on either replica.
    await request(second.url).post('/a2a/v1').set('Authorization', 'Bearer not-a-peer').send({}).expect(401);
  });

  it('a replica that stops cleanly leaves the list at once; the other keeps serving', async () => {
    const leaving = replicas.shift()!;
    await leaving.stop();
    const [staying] = replicas;
    const body = (await admin(staying.url, '/admin/cluster').expect(200)).body as { replicas: unknown[] };
    expect(body.replicas).toHaveLength(1);
    await request(staying.url).get('/readyz').expect(200);
  });
});
