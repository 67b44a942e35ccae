import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { GatewayProcess } from '../fixtures/gateway-process';
import { a2aRpc } from '../support/a2a-rpc';
import { artifactText, fetchWithToken, sdkClient, sdkFile, sdkMessage, sendTask } from '../support/a2a-sdk';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { waitFor } from '../support/gateway-harness';
import { startReplicaCluster, type ReplicaCluster } from './support/replica';

// The SDK's CommonJS build requires the ESM-only jose for card signatures (unused here): see test/support/a2a-sdk.ts.
jest.mock('jose', () => ({}));

/**
 * INPUT_REQUIRED answered through another replica: two `clawgate gateway` processes share A2A tasks in one real
 * PostgreSQL and coordinate through one real Redis. The agent's run on replica A asks the peer a question
 * (request_input); the peer's answer goes to replica B, which passes it to A; A's waiting run continues with it, and B
 * answers the peer as A would (blocking, streaming, or at once). Then the refusals: no replica left to take the
 * answer, and one that hears it but never replies.
 */

const PEER_TOKEN = 'input-peer-token-9e4f';

const configText = (redisUrl: string, modelUrl: string) => `{
  gateway: { state: { backend: "postgres", url: "\${DATABASE_URL}" }, cluster: { redis: { url: "${redisUrl}" } } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${modelUrl}" } } },
  agents: { list: [{ id: "main", default: true, model: "fake/brain" }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
}`;

describe('A2A INPUT_REQUIRED answered through another replica (system)', () => {
  let cluster: ReplicaCluster;
  const model = new FakeOpenAiServer();
  let a: GatewayProcess;
  let b: GatewayProcess;
  /** A task waiting for input on A when A was killed. */
  let leftBehind: Task | undefined;

  beforeAll(async () => {
    cluster = await startReplicaCluster({ database: 'cluster_input', config: (redisUrl) => configText(redisUrl, model.baseUrl) });
    await model.start();
    // The agent asks where to before it books; the answer comes back as the tool's result in the same run.
    model.always(
      agentBrain(model, ({ message, toolResult }) => {
        if (toolResult?.answer === 'ask me again') return { tool: 'request_input', args: { question: 'Which day?' } };
        if (toolResult) return { text: toolResult.status === 'ok' ? `booked a flight to ${String(toolResult.answer)}` : 'no answer' };
        if (message.includes('book')) return { tool: 'request_input', args: { question: 'Which city?' } };
        return { text: `plain answer to: ${message}` };
      }),
    );
    [a, b] = await Promise.all(['a', 'b'].map(startReplica));
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    await model.close();
  });

  const startReplica = (name: string) => cluster.start(name);

  const client = (gateway: GatewayProcess, binding: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC') =>
    sdkClient(gateway.url, fetchWithToken(PEER_TOKEN), binding);
  const getTask = async (gateway: GatewayProcess, id: string) =>
    (await client(gateway)).getTask({ tenant: '', id, historyLength: undefined });
  /** A task of A's that waits for the peer's answer to "Which city?". */
  const askOnA = async () => {
    const asked = await sendTask(await client(a), 'please book a flight');
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    return asked;
  };
  const runIdOn = async (gateway: GatewayProcess, id: string) =>
    ((await (await fetch(`${gateway.url}/admin/a2a/tasks/${id}`)).json()) as { runId: string }).runId;

  it('a blocking answer sent to B continues the run on A: B answers COMPLETED with the answer, and both replicas GetTask it', async () => {
    const asked = await askOnA();
    const runBefore = await runIdOn(a, asked.id);
    const done = await sendTask(await client(b), 'Paris', { taskId: asked.id, contextId: asked.contextId });
    expect([done.id, done.status?.state, artifactText(done)]).toEqual([
      asked.id,
      TaskState.TASK_STATE_COMPLETED,
      'booked a flight to Paris',
    ]);
    // One run did it all, on A: the answer reached it as its tool's result.
    expect(await runIdOn(a, asked.id)).toBe(runBefore);
    expect(JSON.parse(model.lastToolResult() ?? '{}')).toEqual({ status: 'ok', answer: 'Paris' });
    for (const gateway of [a, b]) {
      const seen = await getTask(gateway, asked.id);
      expect([seen.status?.state, artifactText(seen)]).toEqual([TaskState.TASK_STATE_COMPLETED, 'booked a flight to Paris']);
      expect(seen.history.map((m) => m.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join(''))).toEqual([
        'please book a flight',
        'Which city?',
        'Paris',
      ]);
    }
    expect([a.errorLogs, b.errorLogs]).toEqual([[], []]);
  }, 60_000);

  it('over JSON-RPC by hand: no -32004 from B any more, and returnImmediately answers WORKING at once', async () => {
    const asked = await askOnA();
    const reply = await a2aRpc(b.url, PEER_TOKEN, 'SendMessage', {
      message: { messageId: 'm-answer-rpc', role: 'ROLE_USER', taskId: asked.id, parts: [{ text: 'Oslo' }] },
      configuration: { returnImmediately: true },
    });
    expect(reply.error).toBeUndefined();
    const { task } = reply.result as { task: { id: string; status: { state: string } } };
    expect(task.id).toBe(asked.id);
    expect(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']).toContain(task.status.state);
    const done = await waitFor('the task to complete after the answer', async () => {
      const seen = await getTask(a, asked.id);
      return seen.status?.state === TaskState.TASK_STATE_COMPLETED ? seen : undefined;
    });
    expect(artifactText(done)).toBe('booked a flight to Oslo');
  }, 60_000);

  it('a streamed answer (HTTP+JSON) with a file: B streams the task from WORKING to COMPLETED, the file reached the run on A', async () => {
    const asked = await askOnA();
    const stream = (await client(b, 'HTTP+JSON')).sendMessageStream({
      tenant: '',
      message: sdkMessage('Rome', asked.contextId, [sdkFile(Buffer.from('aisle seat please'), 'notes.txt', 'text/plain')], asked.id),
      configuration: undefined,
      metadata: undefined,
    });
    const items: StreamResponse[] = [];
    for await (const item of stream) items.push(item);
    expect(items[0].payload).toMatchObject({ $case: 'task', value: { id: asked.id } });
    expect((items[0].payload!.value as Task).status?.state).not.toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(items.at(-1)?.payload).toMatchObject({ $case: 'statusUpdate', value: { status: { state: TaskState.TASK_STATE_COMPLETED } } });
    const done = await getTask(a, asked.id);
    expect(artifactText(done)).toContain('booked a flight to Rome');
    // The file was stored by A (the replica whose run read it) and shown to its agent inline.
    expect(artifactText(done)).toContain('aisle seat please');
  }, 60_000);

  it('a blocking answer on B is answered at the next question when the run asks again; the next answer on B completes it', async () => {
    const asked = await askOnA();
    const again = await sendTask(await client(b), 'ask me again', { taskId: asked.id });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(again.status?.message?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).toEqual(['Which day?']);
    const done = await sendTask(await client(b, 'HTTP+JSON'), 'Monday', { taskId: asked.id });
    expect([done.status?.state, artifactText(done)]).toEqual([TaskState.TASK_STATE_COMPLETED, 'booked a flight to Monday']);
  }, 60_000);

  it('of two answers racing, one to A and one to B, exactly one continues the run; the other is -32004', async () => {
    const asked = await askOnA();
    const answers = await Promise.all(
      [a, b].map((gateway, i) =>
        a2aRpc(gateway.url, PEER_TOKEN, 'SendMessage', {
          message: { messageId: `m-race-${i}`, role: 'ROLE_USER', taskId: asked.id, parts: [{ text: i ? 'Bergen' : 'Athens' }] },
        }),
      ),
    );
    const won = answers.filter((r) => r.result);
    const lost = answers.filter((r) => r.error);
    expect([won.length, lost.length]).toEqual([1, 1]);
    // The loser found the task taken (or, when the winner's run was that quick, already over).
    expect(lost[0].error).toMatchObject({ code: -32004, message: expect.stringMatching(/not waiting for input|already over/) });
    const task = (won[0].result as { task: { status: { state: string } } }).task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const seen = await getTask(b, asked.id);
    expect(['booked a flight to Athens', 'booked a flight to Bergen']).toContain(artifactText(seen));
  }, 60_000);

  it('an answer on B for a task whose replica is gone is UnsupportedOperationError at once, saying no replica answers for it', async () => {
    leftBehind = await askOnA();
    await a.kill9();
    const asked = Date.now();
    const refused = await sendTask(await client(b), 'Lisbon', { taskId: leftBehind.id }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnsupportedOperationError);
    expect((refused as Error).message).toContain('no gateway replica answers for its run');
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect((await getTask(b, leftBehind.id)).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  }, 60_000);

  it('an answer on B whose owner hears it but never replies is UnsupportedOperationError after 10 s, and B stays up', async () => {
    // A is gone (the test before); something still listens on its input channel, and does nothing.
    const taskId = leftBehind!.id;
    const db = new Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const { owner } = (await db.query('SELECT owner FROM tasks WHERE id = $1', [taskId])).rows[0] as { owner: string };
    await db.end();
    const deaf = new Redis({ host: '127.0.0.1', port: cluster.redis.port });
    await deaf.subscribe(`clawgate:a2a:task-input:${owner}`);
    try {
      const asked = Date.now();
      const refused = await sendTask(await client(b), 'Lisbon', { taskId }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(UnsupportedOperationError);
      expect((refused as Error).message).toContain('did not confirm the answer in time');
      expect(Date.now() - asked).toBeGreaterThanOrEqual(9_500);
      expect(b.running).toBe(true);
    } finally {
      deaf.disconnect();
    }
  }, 60_000);
});
