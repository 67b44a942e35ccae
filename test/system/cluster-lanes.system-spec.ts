import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import request from 'supertest';
import { CliBuild, transpileCli } from '../fixtures/cli-runner';
import { GatewayProcess } from '../fixtures/gateway-process';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { lastUserText, RecordedRequest } from '../support/fake-model-server';
import { startRedis, TestRedis } from './support/redis';
import { startReplicaIn } from './support/replica';

/**
 * Session lanes as Redis leases: two `clawgate gateway` processes (each its own state dir) never run one
 * session at once, whichever replica each message reaches; runs of other sessions are not held up; a replica
 * killed while it runs a session holds the lease until it expires, and then the other one takes it over with a
 * larger fencing token. The model is a local fake that counts the requests in flight per conversation.
 */

const PEER_TOKEN = 'lanes-peer-token-2b8e';
const MODEL_MS = 700;

const configText = (redisUrl: string, modelUrl: string) => `{
  gateway: { cluster: { redis: { url: "${redisUrl}" } } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelUrl}" } } },
  agents: { list: [{ id: "main", model: "fake/slow" }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
}`;

/** The conversation a model request belongs to: the tests write `<context>/<n>` as the message text. */
function conversationOf(req: RecordedRequest): string {
  return lastUserText(req).split('/')[0];
}

const send = (url: string, contextId: string, n: number) =>
  request(url)
    .post('/a2a/v1')
    .set('Authorization', `Bearer ${PEER_TOKEN}`)
    .send({
      jsonrpc: '2.0',
      id: n,
      method: 'SendMessage',
      params: { message: { messageId: `${contextId}-${n}`, contextId, role: 'ROLE_USER', parts: [{ text: `${contextId}/${n}` }] } },
    })
    .expect(200)
    .then((res) => res.body as { result?: { task?: { status?: { state?: string } } }; error?: unknown });

describe('session lanes leased through a real Redis (system)', () => {
  let redis: TestRedis;
  let client: Redis;
  let build: CliBuild;
  let dir: string;
  const model = new FakeOpenAiServer();
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  const arrivals: Array<{ conversation: string; at: number }> = [];
  /** Requests of these conversations stay open until the test lets them go. */
  const heldConversations = new Map<string, Promise<void>>();
  const gateways: GatewayProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis({ host: '127.0.0.1', port: redis.port, lazyConnect: true });
    await client.connect();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-lanes-'));
    build = await transpileCli();
    await model.start();
    model.always((req) => {
      const conversation = conversationOf(req);
      arrivals.push({ conversation, at: Date.now() });
      const now = (inFlight.get(conversation) ?? 0) + 1;
      inFlight.set(conversation, now);
      maxInFlight.set(conversation, Math.max(maxInFlight.get(conversation) ?? 0, now));
      const gate = (heldConversations.get(conversation) ?? new Promise((r) => setTimeout(r, MODEL_MS))).then(() => {
        inFlight.set(conversation, (inFlight.get(conversation) ?? 1) - 1);
      });
      return model.held(gate, model.text(`answer to ${conversation}`))(req);
    });
  }, 60_000);
  afterAll(async () => {
    for (const g of gateways) await g.kill9();
    client?.disconnect();
    await model.close();
    await build?.remove();
    await redis?.destroy();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  async function startReplica(name: string): Promise<GatewayProcess> {
    const gateway = await startReplicaIn(dir, name, { cliJs: build.cliJs, config: configText(redis.url, model.baseUrl) });
    gateways.push(gateway);
    return gateway;
  }

  let a: GatewayProcess;
  let b: GatewayProcess;

  it('runs one session on one replica at a time, whichever replica each message reaches; other sessions run alongside', async () => {
    [a, b] = await Promise.all([startReplica('a'), startReplica('b')]);
    const started = Date.now();
    const answers = await Promise.all([
      send(a.url, 'shared', 1),
      send(b.url, 'shared', 2),
      send(a.url, 'shared', 3),
      send(b.url, 'shared', 4),
      send(b.url, 'other', 1),
    ]);
    expect(answers.map((r) => r.result?.task?.status?.state)).toEqual(Array(5).fill('TASK_STATE_COMPLETED'));
    expect(maxInFlight.get('shared')).toBe(1);
    // Four runs one after another; the other session's run did not wait for them.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * MODEL_MS);
    const otherAt = arrivals.find((x) => x.conversation === 'other')!.at;
    const sharedAts = arrivals.filter((x) => x.conversation === 'shared').map((x) => x.at);
    expect(otherAt).toBeLessThan(Math.max(...sharedAts));
    // Every lease was given back.
    expect(await client.keys('clawgate:lane:*')).toEqual([]);
  }, 90_000);

  it('a replica killed while it runs a session keeps the lane until its lease expires; then the other takes it over with a larger token', async () => {
    let release!: () => void;
    heldConversations.set('crash', new Promise<void>((r) => (release = r)));
    const first = send(a.url, 'crash', 1).catch(() => undefined);
    const leaseKey = await waitForKey(client, 'clawgate:lane:main:*', 10_000);
    const firstHolder = (await client.get(leaseKey))!;
    expect(firstHolder.split('#')[0]).toContain(`-${a.pid}-`);
    await a.kill9();
    const killedAt = Date.now();
    release();
    heldConversations.delete('crash');
    await first;

    let releaseSecond!: () => void;
    heldConversations.set('crash', new Promise<void>((r) => (releaseSecond = r)));
    const second = send(b.url, 'crash', 2);
    const arrived = async () => arrivals.filter((x) => x.conversation === 'crash').length === 2;
    for (const deadline = Date.now() + 20_000; !(await arrived());) {
      if (Date.now() > deadline) throw new Error('the second run never reached the model');
      await new Promise((r) => setTimeout(r, 50));
    }
    const secondHolder = (await client.get(leaseKey))!;
    releaseSecond();
    expect((await second).result?.task?.status?.state).toBe('TASK_STATE_COMPLETED');
    const taken = arrivals.filter((x) => x.conversation === 'crash');
    // Not before the dead holder's lease ran out: 10 s after its last renewal, which was at most 3 s before the kill.
    expect(taken[1].at - killedAt).toBeGreaterThanOrEqual(6_500);
    expect(maxInFlight.get('crash')).toBe(1);
    // The lease is b's now, under a larger fencing token than a's.
    expect(secondHolder.split('#')[0]).toContain(`-${b.pid}-`);
    expect(Number(secondHolder.split('#')[1])).toBeGreaterThan(Number(firstHolder.split('#')[1]));
    expect(await client.keys('clawgate:lane:*')).toEqual([]);
    expect(b.errorLogs).toEqual([]);
  }, 90_000);
});

async function waitForKey(client: Redis, pattern: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [key] = await client.keys(pattern);
    if (key) return key;
    if (Date.now() > deadline) throw new Error(`no key ${pattern} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
