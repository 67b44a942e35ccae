import { existsSync } from 'node:fs';
import { TaskState } from '@a2a-js/sdk';
import { canonicalize } from 'json-canonicalize';
import { Client } from 'pg';
import request from 'supertest';
import { taskDatabasePath } from '../../src/modules/a2a-channel/store/sqlite/sqlite-task.store';
import { pushSigningKeyPath } from '../../src/modules/a2a-channel/push/push-signing-key';
import { a2aRpc } from '../support/a2a-rpc';
import { artifactText, fetchWithToken, sdkClient, sdkSendRequest, sendTask } from '../support/a2a-sdk';
import { startTestGateway, type TestGateway, waitFor } from '../support/gateway-harness';
import { PushReceiver } from '../support/push-receiver';
import { hostJose } from '../support/admin-jose';
import { startPostgres, type TestPostgres } from './support/postgres';

// The SDK's CommonJS build requires the ESM-only jose for card signatures (unused here): see test/support/a2a-sdk.ts.
jest.mock('jose', () => ({}));
jest.setTimeout(90_000);

const HERMES = 'hermes-token-0123456789abcdef';
/** The receiver's origin is known once it listens (beforeAll). */
const configFor = (receiver: string) => `{
  gateway: { state: { backend: "postgres", url: "\${DATABASE_URL}" } },
  agents: { list: [{ id: "main", default: true }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${HERMES}", pushUrls: ["${receiver}/hooks/*"] } } } },
}`;

/** The gateway with `gateway.state.backend: "postgres"`: A2A tasks in a real PostgreSQL, through the real endpoint. */
describe('A2A tasks on PostgreSQL (system)', () => {
  let postgres: TestPostgres;
  let url: string;
  let gw: TestGateway | undefined;
  let receiver: PushReceiver;
  let config: string;
  // The push signatures are made with jose, which jest's sandbox cannot import: the host's copy is handed in.
  const jose = hostJose();

  beforeAll(async () => {
    [postgres, receiver] = await Promise.all([startPostgres(), new PushReceiver().start()]);
    url = await postgres.createDatabase('gateway');
    config = configFor(receiver.origin);
  });
  afterAll(async () => {
    await gw?.stop();
    await receiver?.close();
    await postgres?.stop();
  });

  const listAll = async (client: Awaited<ReturnType<typeof sdkClient>>, contextId: string) =>
    client.listTasks({
      tenant: '',
      contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 10,
      pageToken: '',
      statusTimestampAfter: undefined,
      includeArtifacts: true,
    });

  it('serves SendMessage, GetTask and ListTasks from PostgreSQL, and finds the tasks after a restart', async () => {
    gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    const client = await sdkClient(gw.url, fetchWithToken(HERMES), 'JSONRPC');
    const contextId = 'ctx-pg';
    const sent = [];
    for (const text of ['one', 'two', 'three']) sent.push(await sendTask(client, text, { contextId }));
    expect(sent.map((t) => t.status?.state)).toEqual(sent.map(() => TaskState.TASK_STATE_COMPLETED));
    const got = await client.getTask({ tenant: '', id: sent[1].id });
    expect([got.id, artifactText(got)]).toEqual([sent[1].id, artifactText(sent[1])]);
    const page = await listAll(client, contextId);
    expect([page.totalSize, page.tasks.map((t) => t.id)]).toEqual([3, sent.map((t) => t.id).reverse()]);

    // The rows are in the database, and no task database was made in the state dir.
    const db = new Client({ connectionString: url });
    await db.connect();
    const rows = (await db.query('SELECT id FROM tasks ORDER BY seq')).rows as Array<{ id: string }>;
    await db.end();
    expect(rows.map((r) => r.id)).toEqual(sent.map((t) => t.id));
    expect(existsSync(taskDatabasePath(gw.stateDir))).toBe(false);

    gw = await gw.restart();
    const again = await sdkClient(gw.url, fetchWithToken(HERMES), 'JSONRPC');
    const after = await again.getTask({ tenant: '', id: sent[0].id });
    expect([after.status?.state, artifactText(after)]).toEqual([TaskState.TASK_STATE_COMPLETED, artifactText(sent[0])]);
    expect((await listAll(again, contextId)).tasks.map((t) => t.id)).toEqual(sent.map((t) => t.id).reverse());
  });

  it('claims push on the card and delivers each event once from the outbox two replicas share', async () => {
    if (!gw) gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    // Nothing is copied: the replicas share the signing key through the database (the first to need it makes it), so
    // both publish one JWKS and a delivery verifies against either replica's whichever replica claimed it.
    const replica = await startTestGateway(config, { env: { DATABASE_URL: url } });
    try {
      const [jwksFirst, jwksReplica] = await Promise.all(
        [gw, replica].map(
          async (g) => (await request(g.url).get('/.well-known/a2a-push-jwks.json').expect(200)).body as { keys: object[] },
        ),
      );
      expect(jwksReplica).toEqual(jwksFirst);
      expect(jwksFirst.keys).toHaveLength(1);
      expect(jwksFirst.keys[0]).not.toHaveProperty('d');
      for (const g of [gw, replica]) expect(existsSync(pushSigningKeyPath(g.stateDir))).toBe(false);
      // Both sign their Agent Cards with that one key too: each card verifies against the other replica's key set.
      for (const [g, other] of [
        [gw, replica],
        [replica, gw],
      ]) {
        const card = (await request(g.url).get('/.well-known/agent-card.json').expect(200)).body as Record<string, unknown> & {
          signatures: Array<{ protected: string; signature: string }>;
        };
        expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
        const { signatures, ...content } = card;
        const keys = jose.createRemoteJWKSet(new URL(`${other.url}/.well-known/a2a-push-jwks.json`));
        await jose.flattenedVerify({ ...signatures[0], payload: jose.base64url.encode(canonicalize(content)) }, keys);
      }
      // The task and its config are written by one replica; either replica may deliver.
      const hook = (name: string) => `${receiver.origin}/hooks/${name}`;
      const sent = await a2aRpc(gw.url, HERMES, 'SendMessage', {
        message: { messageId: 'm-push', role: 'ROLE_USER', parts: [{ text: 'push me' }] },
        configuration: { taskPushNotificationConfig: { url: hook('first'), token: 'tok-1' } },
      });
      const first = (sent.result as { task: { id: string; status: { state: string } } }).task;
      expect(first.status.state).toBe('TASK_STATE_COMPLETED');

      await waitFor('both events of the first task delivered', async () => receiver.bodiesFor(first.id).length >= 2, 15_000);
      const got = receiver.received.filter((r) => r.path === '/hooks/first');
      expect(got.map((r) => r.headers['x-a2a-event-id'])).toEqual([`${first.id}:1`, `${first.id}:2`]);
      expect(got.map((r) => r.headers['x-a2a-notification-token'])).toEqual(['tok-1', 'tok-1']);
      for (const g of [gw, replica]) {
        const keys = jose.createRemoteJWKSet(new URL(`${g.url}/.well-known/a2a-push-jwks.json`));
        for (const [i, r] of got.entries()) {
          const { payload } = await jose.jwtVerify(String(r.headers['x-a2a-push-signature']), keys, { audience: hook('first') });
          expect(payload).toMatchObject({ task_id: first.id, event: i + 1 });
        }
      }
      expect(JSON.parse(got[1].body).statusUpdate).toMatchObject({ taskId: first.id, status: { state: 'TASK_STATE_COMPLETED' } });

      // Both replicas poll the outbox: after more than one poll each, nothing was sent twice.
      await new Promise((resolve) => setTimeout(resolve, 5000));
      expect(receiver.received.filter((r) => r.path === '/hooks/first')).toHaveLength(2);
      const db = new Client({ connectionString: url });
      await db.connect();
      const rows = (await db.query('SELECT state, attempts, claimed_until FROM push_outbox ORDER BY seq')).rows as unknown[];
      await db.end();
      expect(rows).toEqual([
        { state: 'delivered', attempts: 1, claimed_until: null },
        { state: 'delivered', attempts: 1, claimed_until: null },
      ]);
      // The operator's view reads the same shared outbox from either replica.
      const listed = await request(replica.url).get('/admin/a2a/push').expect(200);
      expect(listed.body.counts).toEqual({ pending: 0, delivered: 2, failed: 0 });
    } finally {
      await replica.stop();
    }
  });

  it('refuses a push URL the operator did not allow, naming the setting, with the task store on PostgreSQL', async () => {
    if (!gw) gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    const sent = await a2aRpc(gw.url, HERMES, 'SendMessage', {
      message: { messageId: 'm-push-3', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
    });
    const taskId = (sent.result as { task: { id: string } }).task.id;
    const create = await a2aRpc(gw.url, HERMES, 'CreateTaskPushNotificationConfig', {
      taskId,
      url: 'https://elsewhere.example.com/hook',
    });
    expect(create.error).toMatchObject({ code: -32602, message: expect.stringContaining('pushUrls') });
    const list = await a2aRpc(gw.url, HERMES, 'ListTaskPushNotificationConfigs', { taskId });
    expect(list.result).toEqual({ configs: [], nextPageToken: '' });
  });

  it('streams a task from the events it commits to PostgreSQL (SendStreamingMessage)', async () => {
    if (!gw) gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    const client = await sdkClient(gw.url, fetchWithToken(HERMES), 'JSONRPC');
    const kinds: Array<string | undefined> = [];
    let taskId = '';
    for await (const event of client.sendMessageStream(sdkSendRequest('stream on pg'))) {
      kinds.push(event.payload?.$case);
      if (event.payload?.$case === 'task') taskId = event.payload.value.id;
    }
    expect([kinds[0], kinds.at(-1)]).toEqual(['task', 'statusUpdate']);
    const db = new Client({ connectionString: url });
    await db.connect();
    const stored = (
      await db.query('SELECT e.n FROM task_events e JOIN tasks t ON t.seq = e.task_seq WHERE t.id = $1 ORDER BY e.n', [taskId])
    ).rows as Array<{ n: number }>;
    await db.end();
    // Every event after the task itself came from a committed row, numbered from 1.
    expect(stored.map((r) => r.n)).toEqual(kinds.slice(1).map((_, i) => i + 1));
  });

  it('shares tasks between two gateways (replicas) on one database', async () => {
    if (!gw) gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    const replica = await startTestGateway(config, { env: { DATABASE_URL: url } });
    try {
      const onFirst = await sendTask(await sdkClient(gw.url, fetchWithToken(HERMES), 'JSONRPC'), 'shared', { contextId: 'ctx-shared' });
      const fromReplica = await (await sdkClient(replica.url, fetchWithToken(HERMES), 'JSONRPC')).getTask({ tenant: '', id: onFirst.id });
      expect([fromReplica.id, fromReplica.status?.state]).toEqual([onFirst.id, TaskState.TASK_STATE_COMPLETED]);
    } finally {
      await replica.stop();
    }
  });

  it('keeps one audit log for both replicas: a write on one is paged by the other, and no audit.jsonl is written', async () => {
    if (!gw) gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    const replica = await startTestGateway(config, { env: { DATABASE_URL: url } });
    try {
      await request(replica.url).post('/admin/runs/no-such-run/cancel').send({});
      // The entry is written once the response is done: the other replica may page a moment before it lands.
      const page = await waitFor('the write in the shared audit log', async () => {
        const res = await request(gw!.url).get('/admin/audit?limit=5').expect(200);
        return (res.body.entries as Array<{ method: string }>)[0]?.method === 'POST' ? res : undefined;
      });
      expect(page.body.entries[0]).toMatchObject({ method: 'POST', path: '/admin/runs/no-such-run/cancel' });
      expect(existsSync(`${replica.stateDir}/audit.jsonl`)).toBe(false);
      const bad = await request(gw.url).get('/admin/audit?before=-1').expect(400);
      expect(JSON.stringify(bad.body)).toContain('before');
    } finally {
      await replica.stop();
    }
  });

  it('does not start when PostgreSQL is unreachable, naming the host and never the password', async () => {
    const closed = `postgres://clawgate:never-print-this@127.0.0.1:${postgres.port + 1}/gateway`;
    const err = await startTestGateway(config, { env: { DATABASE_URL: closed } }).then(
      (started) => started.stop().then(() => undefined),
      (e: Error) => e,
    );
    expect(err?.message).toMatch(new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${postgres.port + 1}/gateway is unreachable`));
    expect(err?.message).not.toContain('never-print-this');
  });
});
