import { TaskState, type StreamResponse } from '@a2a-js/sdk';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { GatewayProcess } from '../fixtures/gateway-process';
import { fetchWithToken, sdkClient, sdkSendRequest, sendTask } from '../support/a2a-sdk';
import { FakeOpenAiServer, tokenText } from '../support/fake-openai-server';
import { waitFor } from '../support/gateway-harness';
import { openSse } from '../support/sse-client';
import { startReplicaCluster, type ReplicaCluster } from './support/replica';

// The SDK's CommonJS build requires the ESM-only jose for card signatures (unused here): see test/support/a2a-sdk.ts.
jest.mock('jose', () => ({}));

/**
 * Task events and cancels across replicas: two `clawgate gateway` processes (each its own state dir) share A2A tasks
 * in one real PostgreSQL and coordinate through one real Redis. A subscriber on replica B hears, live and in order,
 * the events of a task that replica A runs; a CancelTask sent to B stops A's run. The model is a local fake whose
 * answers take seconds, so the subscriptions open while the run is under way.
 */

const PEER_TOKEN = 'events-peer-token-5c1d';
const TOKENS = 16;
const TOKEN_GAP_MS = 200;

const configText = (redisUrl: string, modelUrl: string) => `{
  gateway: { state: { backend: "postgres", url: "\${DATABASE_URL}" }, cluster: { redis: { url: "${redisUrl}" } } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelUrl}" } } },
  agents: { list: [{ id: "main", default: true, model: "fake/slow" }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
}`;

type Payload = NonNullable<StreamResponse['payload']>;

/** Every item of a stream, or a failure naming `what` when it has not ended by `timeoutMs` (the events never came). */
async function collect(what: string, stream: AsyncIterable<StreamResponse>, timeoutMs: number): Promise<Payload[]> {
  const items: Payload[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} had not ended after ${timeoutMs} ms; it got ${items.length} item(s)`)), timeoutMs);
  });
  const read = (async () => {
    for await (const item of stream) items.push(item.payload!);
  })();
  try {
    await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
  return items;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} had not ended after ${ms} ms`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The text of a stream's artifact updates, with append and replace applied. */
function artifactOf(items: Payload[]): string {
  let text = '';
  for (const item of items) {
    if (item.$case !== 'artifactUpdate') continue;
    const piece = item.value.artifact!.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
    text = item.value.append ? text + piece : piece;
  }
  return text;
}

describe('A2A task events and cancels across replicas (system)', () => {
  let cluster: ReplicaCluster;
  const model = new FakeOpenAiServer();
  let a: GatewayProcess;
  let b: GatewayProcess;
  /** A task A was running when it was killed. */
  let leftBehind: string | undefined;

  beforeAll(async () => {
    cluster = await startReplicaCluster({ database: 'cluster_events', config: (redisUrl) => configText(redisUrl, model.baseUrl) });
    await model.start();
    model.always(model.text('the default answer'));
    [a, b] = await Promise.all([startReplica('a'), startReplica('b')]);
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    await model.close();
  });

  const startReplica = (name: string) => cluster.start(name);

  const client = (gateway: GatewayProcess, binding: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC') =>
    sdkClient(gateway.url, fetchWithToken(PEER_TOKEN), binding);

  it('a subscriber on B (SDK over JSON-RPC, and SSE over HTTP+JSON) hears the status updates and artifact of a task A runs, in order, once each', async () => {
    model.script(model.tokens(TOKENS, TOKEN_GAP_MS));
    const onA = (await client(a)).sendMessageStream(sdkSendRequest('stream across replicas'))[Symbol.asyncIterator]();
    const first = (await onA.next()).value as StreamResponse;
    expect(first.payload?.$case).toBe('task');
    const taskId = (first.payload!.value as { id: string }).id;
    const restOfA = collect("A's own stream", { [Symbol.asyncIterator]: () => onA }, 30_000);

    // Both subscribe on B while A's run is under way.
    const sdkOnB = collect("B's SubscribeToTask (JSON-RPC)", (await client(b)).resubscribeTask({ tenant: '', id: taskId }), 30_000);
    const sseOnB = await openSse(`${b.url}/a2a/v1/tasks/${taskId}:subscribe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PEER_TOKEN}`, accept: 'text/event-stream' },
    });
    expect(sseOnB.response.status).toBe(200);
    const [fromA, fromB, sseEvents] = await Promise.all([restOfA, sdkOnB, sseOnB.rest()]);

    // A's own stream: every token, then COMPLETED.
    expect(artifactOf(fromA)).toBe(tokenText(TOKENS));
    expect(fromA.at(-1)).toMatchObject({ $case: 'statusUpdate', value: { status: { state: TaskState.TASK_STATE_COMPLETED } } });
    // B's: the task as it was, then exactly A's events from that point on, in A's order, none twice.
    expect(fromB[0].$case).toBe('task');
    const after = fromB.slice(1);
    expect(after.length).toBeGreaterThan(1);
    expect(after).toEqual(fromA.slice(fromA.length - after.length));
    expect(after.at(-1)).toMatchObject({ $case: 'statusUpdate', value: { status: { state: TaskState.TASK_STATE_COMPLETED } } });
    // The SSE ids are the events' numbers: consecutive from the snapshot's, so none was skipped or repeated.
    const ids = sseEvents.map((e) => Number(e.id));
    expect(ids).toEqual(ids.map((_, i) => ids[0] + i));
    expect(ids.length).toBeGreaterThan(2);
    expect(JSON.parse(sseEvents.at(-1)!.data).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    // Most of the reply was made after B subscribed: its chunks came to B live, from A.
    expect(after.filter((item) => item.$case === 'artifactUpdate').length).toBeGreaterThan(TOKENS / 4);
  }, 60_000);

  it('a task A runs without its caller waiting (returnImmediately) streams its reply to a subscriber on B, chunk by chunk', async () => {
    model.script(model.tokens(TOKENS, TOKEN_GAP_MS));
    const before = model.requests.length;
    const started = await sendTask(await client(a), 'grow on the other replica', { returnImmediately: true });
    expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    await waitFor('the run on A to reach the model', async () => model.requests.length > before, 10_000);
    const onB = await collect("B's SubscribeToTask", (await client(b)).resubscribeTask({ tenant: '', id: started.id }), 30_000);
    expect(onB[0].$case).toBe('task');
    expect(onB.at(-1)).toMatchObject({ $case: 'statusUpdate', value: { status: { state: TaskState.TASK_STATE_COMPLETED } } });
    // The reply grew on B as A's model streamed it: many chunks, not one final artifact.
    const chunks = onB.filter((item) => item.$case === 'artifactUpdate');
    expect(chunks.length).toBeGreaterThan(TOKENS / 4);
    const snapshot = onB[0].value as { artifacts: Array<{ parts: Array<{ content?: { $case: string; value: unknown } }> }> };
    const sofar = snapshot.artifacts
      .flatMap((x) => x.parts)
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('');
    const grown = artifactOf(onB.slice(1));
    expect(chunks[0].$case === 'artifactUpdate' && chunks[0].value.append ? sofar + grown : grown).toBe(tokenText(TOKENS));
    const done = await (await client(b)).getTask({ tenant: '', id: started.id, historyLength: undefined });
    expect(done.artifacts.map((x) => x.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join(''))).toEqual([
      tokenText(TOKENS),
    ]);
  }, 60_000);

  it('a subscriber on B whose Redis connection is cut mid-run still gets every event once, in order (read from the store after it reconnects)', async () => {
    model.script(model.tokens(TOKENS, TOKEN_GAP_MS));
    const started = await sendTask(await client(a), 'stream through a hiccup', { returnImmediately: true });
    const sse = await openSse(`${b.url}/a2a/v1/tasks/${started.id}:subscribe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PEER_TOKEN}`, accept: 'text/event-stream' },
    });
    const first = await sse.next();
    expect(JSON.parse(first!.data).task.id).toBe(started.id);
    // Every subscribed connection is dropped (B's and A's); what is published until B has subscribed again is lost.
    const redisCli = new Redis({ host: '127.0.0.1', port: cluster.redis.port });
    await new Promise((r) => setTimeout(r, TOKEN_GAP_MS * 3));
    const killed = Number(await redisCli.call('CLIENT', 'KILL', 'TYPE', 'pubsub'));
    redisCli.disconnect();
    expect(killed).toBeGreaterThanOrEqual(1);
    const events = [first!, ...(await withTimeout(sse.rest(), 30_000, "B's stream after the hiccup"))];
    const ids = events.map((e) => Number(e.id));
    expect(ids).toEqual(ids.map((_, i) => ids[0] + i));
    const last = JSON.parse(events.at(-1)!.data);
    expect(last.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    const text = events
      .slice(1)
      .map((e) => JSON.parse(e.data).artifactUpdate)
      .filter(Boolean)
      .reduce(
        (sofar: string, u: { append: boolean; artifact: { parts: Array<{ text: string }> } }) =>
          (u.append ? sofar : '') + u.artifact.parts[0].text,
        '',
      );
    expect(text).toBe(tokenText(TOKENS));
    // B re-read its stream's events from the store after it subscribed again; A published to it before and after.
    const metricsOfB = await (await fetch(`${b.url}/metrics`)).text();
    expect(metricsOfB).toMatch(/^clawgate_cluster_task_event_resyncs_total [1-9]/m);
    expect(metricsOfB).toMatch(/^clawgate_cluster_task_event_messages_received_total [1-9]/m);
    expect(await (await fetch(`${a.url}/metrics`)).text()).toMatch(/^clawgate_cluster_task_event_messages_published_total [1-9]/m);
  }, 60_000);

  it('CancelTask sent to B stops the run on A: the model request is aborted, and the task is CANCELED on both', async () => {
    model.script(model.stall());
    const before = model.requests.length;
    const started = await sendTask(await client(a), 'run until canceled', { returnImmediately: true });
    expect(started.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    await waitFor('the run on A to reach the model', async () => model.requests.length > before, 10_000);
    const abortsBefore = model.clientAborts;

    const canceled = await (await client(b, 'HTTP+JSON')).cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await waitFor('the model request of A to be aborted', async () => model.clientAborts > abortsBefore, 2_000);
    for (const gateway of [a, b]) {
      const seen = await (await client(gateway)).getTask({ tenant: '', id: started.id, historyLength: undefined });
      expect(seen.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    }
    expect([a.errorLogs, b.errorLogs]).toEqual([[], []]);
  }, 60_000);

  it('CancelTask on B for a task whose replica is gone answers TaskNotCancelableError at once, and B stays up', async () => {
    model.script(model.stall());
    const started = await sendTask(await client(a), 'left behind', { returnImmediately: true });
    leftBehind = started.id;
    await a.kill9();
    const asked = Date.now();
    const refused = await (await client(b)).cancelTask({ tenant: '', id: started.id, metadata: undefined }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TaskNotCancelableError);
    expect((refused as Error).message).toContain('no gateway replica answers for its run');
    expect(Date.now() - asked).toBeLessThan(5_000);
    const still = await (await client(b)).getTask({ tenant: '', id: started.id, historyLength: undefined });
    expect(still.status?.state).toBe(TaskState.TASK_STATE_WORKING);
  }, 60_000);

  it('CancelTask on B whose owner hears the request but never ends the task answers TaskNotCancelableError after 10 s', async () => {
    // A is gone (the test before); something still listens on its cancel channel, and does nothing.
    const taskId = leftBehind!;
    const db = new Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const { owner } = (await db.query('SELECT owner FROM tasks WHERE id = $1', [taskId])).rows[0] as { owner: string };
    await db.end();
    const deaf = new Redis({ host: '127.0.0.1', port: cluster.redis.port });
    await deaf.subscribe(`clawgate:a2a:task-cancel:${owner}`);
    try {
      const asked = Date.now();
      const refused = await (await client(b)).cancelTask({ tenant: '', id: taskId, metadata: undefined }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TaskNotCancelableError);
      expect((refused as Error).message).toContain('did not confirm the cancel in time');
      expect(Date.now() - asked).toBeGreaterThanOrEqual(9_500);
      expect(b.running).toBe(true);
    } finally {
      deaf.disconnect();
    }
  }, 60_000);
});
