import { existsSync } from 'node:fs';
import request from 'supertest';
import { exchangeDatabasePath } from '../../src/modules/session-tools/sqlite-exchange.store';
import { lastUserText } from '../support/fake-model-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { waitFor } from '../support/gateway-harness';
import { startReplicaCluster, type ReplicaCluster } from './support/replica';

/**
 * sessions_send exchanges of two `clawgate gateway` replicas sharing a real PostgreSQL (and a real Redis): an
 * exchange run on A is in the run report and the topology traffic read from B, no replica writes `exchanges.sqlite`,
 * and once A is killed with SIGKILL and its ownership lease is gone, B marks A's running exchange interrupted.
 */

jest.setTimeout(180_000);

const SUPPORT = 'agent:support:main';
const EXPERT = 'agent:expert:main';

const configText = (redisUrl: string, modelUrl: string) => `{
  gateway: { state: { backend: "postgres", url: "\${DATABASE_URL}" }, cluster: { redis: { url: "${redisUrl}" } } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelUrl}", timeoutMs: 600000 } } },
  agents: { list: [{ id: "support", default: true, model: "fake/m" }, { id: "expert", model: "fake/m" }] },
  tools: { agentToAgent: { enabled: true, allow: ["*"] }, sessions: { visibility: "all" } },
  session: { agentToAgent: { maxPingPongTurns: 0 } },
}`;

interface RunReportBody {
  run: { runId: string; status: string };
  exchange?: { runId: string; state: string; requesterSessionKey: string; roundOne: { status: string; reply?: string; error?: string } };
  exchangeStep?: string;
}

describe('sessions_send exchanges shared by replicas on PostgreSQL (system)', () => {
  let cluster: ReplicaCluster;
  let releaseSlow!: () => void;
  const slowGate = new Promise<void>((r) => (releaseSlow = r));
  const model = new FakeOpenAiServer();

  beforeAll(async () => {
    cluster = await startReplicaCluster({ database: 'exchanges', config: (redisUrl) => configText(redisUrl, model.baseUrl) });
    await model.start();
    model.always((req) => {
      // The last user message: `slow …` is held until the suite ends, anything else is answered at once.
      const text = lastUserText(req);
      if (text.startsWith('slow')) return model.held(slowGate, model.text(`late answer to ${text}`))(req);
      return model.text(`expert answer to ${text}`)(req);
    });
  }, 90_000);
  afterAll(async () => {
    await cluster?.close();
    releaseSlow();
    await model.close();
  });

  const startReplica = (name: string) => cluster.start(name);
  const stateDirOf = (name: string) => cluster.stateDirOf(name);
  const sendAs = async (url: string, sessionKey: string, body: Record<string, unknown>) =>
    (
      await request(url)
        .post(`/admin/sessions/${encodeURIComponent(sessionKey)}/send`)
        .send(body)
        .expect(200)
    ).body as {
      status: string;
      runId: string;
      reply?: string;
    };
  const report = async (url: string, runId: string) => (await request(url).get(`/admin/runs/${runId}`).expect(200)).body as RunReportBody;

  it('serves an exchange run on A from B (run report, topology traffic), and B marks it interrupted once A is gone', async () => {
    const [a, b] = await Promise.all([startReplica('a'), startReplica('b')]);

    const sent = await sendAs(a.url, SUPPORT, { sessionKey: EXPERT, message: 'what does E42 mean?', timeoutSeconds: 30 });
    expect(sent).toMatchObject({ status: 'ok', reply: 'expert answer to what does E42 mean?' });
    // B's runtime never saw the run: what it answers comes from the shared store.
    const fromB = await waitFor(
      'the finished exchange on B',
      async () => {
        const res = await request(b.url).get(`/admin/runs/${sent.runId}`);
        return res.status === 200 && (res.body as RunReportBody).exchange?.state === 'finished' && (res.body as RunReportBody);
      },
      10_000,
    );
    expect(fromB).toMatchObject({
      run: { runId: sent.runId, status: 'completed' },
      exchangeStep: 'round-one',
      exchange: {
        runId: sent.runId,
        requesterSessionKey: SUPPORT,
        roundOne: { status: 'completed', reply: 'expert answer to what does E42 mean?' },
      },
    });
    const traffic = (await request(b.url).get('/admin/topology').expect(200)).body.traffic as { sessionsSend: unknown[] };
    expect(traffic.sessionsSend).toEqual([{ from: 'support', to: 'expert', count: 1 }]);

    // An exchange A is still running: B sees it running, and leaves it so while A is alive.
    const slow = await sendAs(a.url, SUPPORT, { sessionKey: EXPERT, message: 'slow question', timeoutSeconds: 0 });
    expect(slow.status).toBe('accepted');
    const running = await waitFor(
      'the running exchange on B',
      async () => {
        const res = await request(b.url).get(`/admin/runs/${slow.runId}`);
        return res.status === 200 && (res.body as RunReportBody);
      },
      10_000,
    );
    expect(running.exchange).toMatchObject({ state: 'running', roundOne: { status: expect.stringMatching(/^(queued|running)$/) } });
    for (const name of ['a', 'b']) expect(existsSync(exchangeDatabasePath(stateDirOf(name)))).toBe(false);

    await a.kill9();
    // The lease lasts 15 s after A's last heartbeat, then two checks 4 s apart.
    const interrupted = await waitFor(
      "A's exchange marked interrupted by B",
      async () => {
        const body = await report(b.url, slow.runId);
        return body.exchange?.state === 'interrupted' && body;
      },
      45_000,
    );
    expect(interrupted.exchange?.roundOne).toMatchObject({ status: 'failed', error: 'the gateway stopped before this run ended' });
    expect((await report(b.url, sent.runId)).exchange?.state).toBe('finished');
    expect(b.errorLogs).toEqual([]);
  });
});
