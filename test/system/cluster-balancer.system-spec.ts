import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { CliBuild, transpileCli } from '../fixtures/cli-runner';
import { GatewayProcess } from '../fixtures/gateway-process';
import { startNginx, type TestNginx } from './support/nginx';
import { startPostgres, type TestPostgres } from './support/postgres';
import { startRedis, type TestRedis } from './support/redis';

jest.setTimeout(120_000);

/**
 * Two `clawgate gateway` processes (each its own state dir) on one PostgreSQL (`gateway.state`: tasks and sessions)
 * and one Redis (`gateway.cluster`: rate-limit windows, session lanes), behind nginx round-robin: what a peer sees
 * does not depend on the replica that answers.
 */

const HERMES = 'balancer-hermes-token-2f81';
const IRIS = 'balancer-iris-token-90ab';
const REDIS_PASSWORD = 'balancer-redis-pass-6c3d';
const CONTEXT = 'ctx-balanced';
const KEY = `agent:main:a2a:default:direct:hermes:${CONTEXT}`;

const configText = (redisUrl: string) => `{
  gateway: {
    state: { backend: "postgres", url: "\${DATABASE_URL}" },
    cluster: { redis: { url: "${redisUrl}", password: "\${REDIS_PASSWORD}" } },
  },
  agents: { list: [{ id: "main", default: true }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 10, peers: { hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" } } } },
}`;

interface RpcAnswer {
  result?: { task?: { id: string; contextId: string; status: { state: string } }; id?: string; status?: { state: string } };
  error?: { code: number; message: string };
}

/** One JSON-RPC call; `served` is the replica nginx passed it to (its `X-Upstream` header) when sent through nginx. */
async function rpc(url: string, token: string, method: string, params: unknown): Promise<RpcAnswer & { served?: string }> {
  const res = await request(url)
    .post('/a2a/v1')
    .set('Authorization', `Bearer ${token}`)
    .send({ jsonrpc: '2.0', id: 1, method, params })
    .expect(200);
  return { ...(res.body as RpcAnswer), served: res.headers['x-upstream'] };
}

describe('two replicas behind a round-robin balancer (system)', () => {
  let postgres: TestPostgres;
  let redis: TestRedis;
  let build: CliBuild;
  let nginx: TestNginx;
  let dir: string;
  const replicas: GatewayProcess[] = [];

  beforeAll(async () => {
    [postgres, redis, build] = await Promise.all([startPostgres(), startRedis({ password: REDIS_PASSWORD }), transpileCli()]);
    const databaseUrl = await postgres.createDatabase('cluster');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-balancer-'));
    for (const name of ['a', 'b']) {
      const home = path.join(dir, name);
      await fs.mkdir(home, { recursive: true });
      const configPath = path.join(home, 'openclaw.json');
      await fs.writeFile(configPath, configText(redis.url));
      // One after the other: the first applies the migrations, the second finds them applied.
      replicas.push(
        await GatewayProcess.start({
          cliJs: build.cliJs,
          configPath,
          stateDir: path.join(home, 'state'),
          home,
          env: { DATABASE_URL: databaseUrl, REDIS_PASSWORD },
        }),
      );
    }
    const upstreams = replicas.map((r) => `server ${new URL(r.url).host};`).join(' ');
    nginx = await startNginx(
      (port) => `
      upstream gateways { ${upstreams} }
      server {
        listen 127.0.0.1:${port};
        location / {
          proxy_pass http://gateways;
          add_header X-Upstream $upstream_addr always;
        }
      }`,
    );
  });
  afterAll(async () => {
    await nginx?.stop();
    for (const r of replicas) await r.stop();
    await build?.remove();
    await redis?.destroy();
    await postgres?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('serves one contextId through both replicas as one session with ordered transcript lines, and every task from either', async () => {
    const sent = [];
    for (const [i, text] of ['first through the balancer', 'second through the balancer'].entries()) {
      const answer = await rpc(nginx.url, HERMES, 'SendMessage', {
        message: { messageId: `m-${i}`, role: 'ROLE_USER', contextId: CONTEXT, parts: [{ text }] },
      });
      expect(answer.result?.task).toMatchObject({ contextId: CONTEXT, status: { state: 'TASK_STATE_COMPLETED' } });
      sent.push({ id: answer.result!.task!.id, served: answer.served });
    }
    // Round-robin: the two messages of the context were answered by different replicas.
    expect(new Set(sent.map((s) => s.served)).size).toBe(2);
    expect(sent.map((s) => s.served).sort()).toEqual(replicas.map((r) => new URL(r.url).host).sort());

    for (const replica of replicas) {
      for (const task of sent) {
        const got = await rpc(replica.url, HERMES, 'GetTask', { id: task.id });
        expect(got.result).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_COMPLETED' } });
      }
      const list = await request(replica.url).get('/admin/sessions').query({ agentId: 'main' }).expect(200);
      expect(list.body.sessions.map((s: { sessionKey: string }) => s.sessionKey)).toEqual([KEY]);
      const history = await request(replica.url)
        .get(`/admin/sessions/${encodeURIComponent(KEY)}/history`)
        .expect(200);
      expect(history.body.lines.map((l: { role: string; text: string }) => [l.role, l.text])).toEqual([
        ['user', 'first through the balancer'],
        ['assistant', '[main] first through the balancer'],
        ['user', 'second through the balancer'],
        ['assistant', '[main] second through the balancer'],
      ]);
    }
  });

  it('limits a peer to rateLimitPerMinute across both replicas: the 11th call of the window is refused wherever it lands', async () => {
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await rpc(nginx.url, IRIS, 'GetTask', { id: `none-${i}` }));
    // Admitted: an unknown task (-32001), served by both replicas in turn.
    expect(answers.map((a) => a.error?.code)).toEqual(answers.map(() => -32001));
    expect(new Set(answers.map((a) => a.served)).size).toBe(2);
    const limited = { code: -32000, message: 'Peer is rate limited' };
    const eleventh = await rpc(nginx.url, IRIS, 'GetTask', { id: 'none-11' });
    expect(eleventh.error).toMatchObject(limited);
    for (const replica of replicas) expect((await rpc(replica.url, IRIS, 'GetTask', { id: 'none-direct' })).error).toMatchObject(limited);
    // Another peer has its own window.
    expect((await rpc(nginx.url, HERMES, 'GetTask', { id: 'none' })).error?.code).toBe(-32001);
  });
});
