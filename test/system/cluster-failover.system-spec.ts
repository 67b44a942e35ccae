import { Client } from 'pg';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { lastUserText } from '../support/fake-model-server';
import { waitFor } from '../support/gateway-harness';
import { startReplicaCluster, type ReplicaCluster } from './support/replica';

/**
 * Failover of runs between two `clawgate gateway` processes sharing their A2A tasks in a real PostgreSQL and
 * coordinating through a real Redis: replica A is killed with SIGKILL while it runs ten slow tasks; replica B keeps
 * serving, leaves them WORKING while A's ownership lease (15 s after its last heartbeat) can still be alive, then
 * marks exactly those ten FAILED; a new run of one of their sessions goes ahead at once; a restarted A rejoins, and
 * stopped cleanly (SIGTERM) fails its own running task before it leaves, without waiting for a lease.
 */

jest.setTimeout(180_000);

const PEER_TOKEN = 'failover-peer-token-7c1d';
/** What a replica's kill leaves of its lease at the least: the TTL (15 s) minus one heartbeat interval (2 s). */
const LEASE_LEFT_AFTER_KILL_MS = 13_000;
const STOPPED = 'the gateway replica running this task stopped';

const configText = (redisUrl: string, modelUrl: string) => `{
  gateway: { state: { backend: "postgres", url: "\${DATABASE_URL}" }, cluster: { redis: { url: "${redisUrl}" } } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelUrl}", timeoutMs: 600000 } } },
  agents: { list: [{ id: "main", default: true, model: "fake/slow" }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
}`;

interface ClusterBody {
  replicas: Array<{ id: string; pid: number; ownedTasks?: number }>;
}

describe('runs owned by replicas with a heartbeat lease: kill -9 failover (system)', () => {
  let cluster: ReplicaCluster;
  let releaseSlow!: () => void;
  const slowGate = new Promise<void>((r) => (releaseSlow = r));
  const model = new FakeOpenAiServer();
  const slowArrivals: string[] = [];

  beforeAll(async () => {
    cluster = await startReplicaCluster({ database: 'failover', config: (redisUrl) => configText(redisUrl, model.baseUrl) });
    await model.start();
    model.always((req) => {
      // The tests write `<kind>/<n>` as message text: `slow` requests are held until the suite ends, others answer at once.
      const text = lastUserText(req);
      if (!text.startsWith('slow/')) return model.text(`answer to ${text}`)(req);
      slowArrivals.push(text);
      return model.held(slowGate, model.text(`late answer to ${text}`))(req);
    });
  }, 90_000);
  afterAll(async () => {
    await cluster?.close();
    releaseSlow();
    await model.close();
  });

  const startReplica = (name: string) => cluster.start(name);

  const send = async (url: string, text: string, contextId: string, returnImmediately = false) => {
    const answer = await a2aRpc(url, PEER_TOKEN, 'SendMessage', { ...userMessage(text, contextId), configuration: { returnImmediately } });
    return answer.result?.task as { id: string; status: { state: string } };
  };
  const getTask = async (url: string, id: string) =>
    (await a2aRpc(url, PEER_TOKEN, 'GetTask', { id })).result as {
      status: { state: string; message?: { parts: Array<{ text: string }> } };
    };
  const statesOf = async (url: string, ids: string[]) => Promise.all(ids.map(async (id) => (await getTask(url, id)).status.state));
  const clusterView = async (url: string) => (await request(url).get('/admin/cluster').expect(200)).body as ClusterBody;

  it('fails exactly the killed replica’s running tasks once its lease has expired, while the other keeps working; A rejoins', async () => {
    const [a, b] = await Promise.all([startReplica('a'), startReplica('b')]);
    await waitFor('both replicas to see each other', async () => (await clusterView(b.url)).replicas.length === 2, 10_000);

    // Work acknowledged as completed before the kill, on both replicas: none of it may be lost.
    const acknowledged = [await send(a.url, 'quick/a-1', 'ctx-a-quick'), await send(b.url, 'quick/b-1', 'ctx-b-quick')];
    expect(acknowledged.map((t) => t.status.state)).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED']);

    // Ten slow tasks on A, each its own session, answered at once (non-blocking) while their runs go on.
    const slow = await Promise.all(Array.from({ length: 10 }, (_, i) => send(a.url, `slow/${i}`, `ctx-slow-${i}`, true)));
    expect(slow.map((t) => t.status.state)).toEqual(Array(10).fill('TASK_STATE_WORKING'));
    const slowIds = slow.map((t) => t.id);
    await waitFor('the ten runs to reach the model', async () => slowArrivals.length === 10, 20_000);
    const owners = await waitFor(
      "A's ten tasks to show on /admin/cluster",
      async () => {
        const { replicas } = await clusterView(b.url);
        return replicas.find((r) => r.pid === a.pid)?.ownedTasks === 10 && replicas;
      },
      5_000,
    );
    expect(owners.find((r) => r.pid === b.pid)?.ownedTasks).toBe(0);

    // A second gateway on A's state dir is refused before it touches anything: A's tasks stay WORKING.
    const second = await startReplica('a').then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(second).toMatch(/exited \(code 75/);
    expect(second).toContain(`in use by pid ${a.pid}`);
    expect(await statesOf(b.url, slowIds)).toEqual(Array(10).fill('TASK_STATE_WORKING'));

    await a.kill9();
    const killedAt = Date.now();

    // B accepts and completes new work throughout, and leaves A's tasks alone while A's lease may be alive.
    let n = 0;
    const completedOnB: string[] = [];
    const workOnB = async () => {
      const task = await send(b.url, `quick/during-${++n}`, `ctx-during-${n}`);
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      completedOnB.push(task.id);
    };
    while (Date.now() - killedAt < LEASE_LEFT_AFTER_KILL_MS - 1_500) {
      await workOnB();
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(await statesOf(b.url, slowIds)).toEqual(Array(10).fill('TASK_STATE_WORKING'));

    const sweptAt = await waitFor(
      'the ten tasks to be FAILED',
      async () => {
        await workOnB();
        return (await statesOf(b.url, slowIds)).every((s) => s === 'TASK_STATE_FAILED') && Date.now();
      },
      20_000,
    );
    expect(sweptAt - killedAt).toBeGreaterThanOrEqual(LEASE_LEFT_AFTER_KILL_MS);
    const failed = await getTask(b.url, slowIds[4]);
    expect(failed.status.message?.parts[0].text).toBe(STOPPED);

    // Exactly those ten: nothing else failed, every acknowledged completion is still there.
    const db = new Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const byState = (await db.query('SELECT state, COUNT(*)::int AS n FROM tasks GROUP BY state ORDER BY state')).rows as unknown[];
    const failedIds = (await db.query("SELECT id FROM tasks WHERE state = 'TASK_STATE_FAILED'")).rows.map((r: { id: string }) => r.id);
    await db.end();
    expect(failedIds.sort()).toEqual([...slowIds].sort());
    expect(byState).toEqual([
      { state: 'TASK_STATE_COMPLETED', n: 2 + completedOnB.length },
      { state: 'TASK_STATE_FAILED', n: 10 },
    ]);
    expect(await statesOf(b.url, [...acknowledged.map((t) => t.id), ...completedOnB])).toEqual(
      Array(2 + completedOnB.length).fill('TASK_STATE_COMPLETED'),
    );

    // The dead replica's session lanes are free by then: a new run of one of those sessions goes ahead at once.
    const started = Date.now();
    expect((await send(b.url, 'quick/after-0', 'ctx-slow-0')).status.state).toBe('TASK_STATE_COMPLETED');
    expect(Date.now() - started).toBeLessThan(3_000);

    // A restarted A (a new process on its state dir) rejoins and serves.
    const again = await startReplica('a');
    await waitFor(
      'the restarted A on /admin/cluster',
      async () => (await clusterView(b.url)).replicas.some((r) => r.pid === again.pid),
      10_000,
    );
    expect((await clusterView(b.url)).replicas.map((r) => r.pid).sort()).toEqual([again.pid, b.pid].sort());
    expect((await send(again.url, 'quick/a-again', 'ctx-a-again')).status.state).toBe('TASK_STATE_COMPLETED');
    expect(a.errorLogs.concat(b.errorLogs, again.errorLogs)).toEqual([]);

    // A clean stop (a rolling update) aborts its runs and fails their tasks itself before it leaves: no lease wait.
    const draining = await send(again.url, 'slow/draining', 'ctx-draining', true);
    await waitFor('the draining run to reach the model', async () => slowArrivals.includes('slow/draining'), 10_000);
    const stopped = Date.now();
    expect((await again.stop()).clean).toBe(true);
    const drained = await getTask(b.url, draining.id);
    expect([drained.status.state, drained.status.message?.parts[0].text]).toEqual(['TASK_STATE_FAILED', 'the gateway is shutting down']);
    expect(Date.now() - stopped).toBeLessThan(LEASE_LEFT_AFTER_KILL_MS);
    expect((await clusterView(b.url)).replicas.map((r) => r.pid)).toEqual([b.pid]);
  });
});
