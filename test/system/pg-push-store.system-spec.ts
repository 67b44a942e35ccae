import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { PushSigningKey, pushSigningKeyPath } from '../../src/modules/a2a-channel/push/push-signing-key';
import { hostJose } from '../support/admin-jose';
import { PgTaskStore } from '../../src/modules/a2a-channel/store/postgres/pg-task.store';
import type { RetentionPolicy } from '../../src/modules/a2a-channel/store/task-store.port';
import { describePushStoreContract } from '../support/push-store-contract';
import { taskBuilder } from '../support/task-store-contract';
import { postgresForSuite } from './support/postgres';

jest.setTimeout(60_000);

const policy: RetentionPolicy = { terminalRetentionMs: 86_400_000, maxTerminalPerPeer: 100, idleExpiryMs: 3_600_000 };
const postgres = postgresForSuite('push');

describePushStoreContract('PostgreSQL', async () => {
  const url = await postgres.freshDatabase();
  const opened: PgTaskStore[] = [];
  return {
    open: async (retention, hooks) => {
      const tasks = await PgTaskStore.open(url, retention, { owner: 'replica-a', poolSize: 4 }, hooks);
      opened.push(tasks);
      return { tasks, push: tasks.push };
    },
    dispose: async () => {
      for (const store of opened) await store.close();
    },
  };
});

describe('PgPushStore (PostgreSQL only: replicas sharing one outbox)', () => {
  const task = taskBuilder();

  it('never hands one delivery to two replicas claiming at the same moment, and each config’s events stay in order', async () => {
    const url = await postgres.freshDatabase();
    const replicas = await Promise.all(['a', 'b', 'c'].map((r) => PgTaskStore.open(url, policy, { owner: `replica-${r}`, poolSize: 4 })));
    try {
      const [a] = replicas;
      const tasks = Array.from({ length: 12 }, () => task());
      for (const t of tasks) {
        await a.insert(t);
        await a.push.save(t, { id: 'c1', url: `https://hooks.example/${t.id}`, wire: '1.0' }, 10);
        await a.transition(t.id, { state: 'TASK_STATE_COMPLETED', artifact: { artifactId: 'x', text: 'done' } }, 2000);
      }
      const now = Date.now() + 60_000;
      // Every replica claims over and over at once, as their deliverers do.
      const rounds = await Promise.all(replicas.flatMap((r) => [1, 2, 3].map(() => r.push.claimDue(now, 5, 60_000))));
      const claimed = rounds.flat();
      const seqs = claimed.map((d) => d.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      // Only the first event of each task's config can be out; the second waits for it.
      expect(claimed.every((d) => d.n === 1)).toBe(true);
      expect(claimed.length).toBe(tasks.length);
      // Settled by whoever holds it, the next event is anybody's.
      for (const d of claimed) await replicas[d.seq % 3].push.markDelivered(d.seq, now);
      const next = (await Promise.all(replicas.map((r) => r.push.claimDue(now + 1, 20, 60_000)))).flat();
      expect(next.map((d) => d.n)).toEqual(tasks.map(() => 2));
      expect(new Set(next.map((d) => d.seq)).size).toBe(tasks.length);
    } finally {
      for (const r of replicas) await r.close();
    }
  });

  it('a delivery claimed by a replica that then died is retried by another once the lease is over', async () => {
    const url = await postgres.freshDatabase();
    const dying = await PgTaskStore.open(url, policy, { owner: 'replica-a' });
    const survivor = await PgTaskStore.open(url, policy, { owner: 'replica-b' });
    try {
      const t = task();
      await dying.insert(t);
      await dying.push.save(t, { id: 'c1', url: 'https://hooks.example/x', wire: '1.0' }, 10);
      await dying.transition(t.id, { state: 'TASK_STATE_COMPLETED' }, 2000);
      const now = Date.now();
      const [held] = await dying.push.claimDue(now, 10, 30_000);
      await dying.close();
      expect(await survivor.push.claimDue(now + 29_999, 10, 30_000)).toEqual([]);
      expect(await survivor.push.nextDue()).toBe(now + 30_000);
      const [retried] = await survivor.push.claimDue(now + 30_000, 10, 30_000);
      expect([retried.seq, retried.n]).toEqual([held.seq, 1]);
    } finally {
      await dying.close();
      await survivor.close();
    }
  });

  it('a change whose transaction fails queues nothing: the outbox rows are in the events’ transaction', async () => {
    const url = await postgres.freshDatabase();
    const store = await PgTaskStore.open(url, policy, { owner: 'replica-a' });
    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      const t = task();
      await store.insert(t);
      await store.push.save(t, { id: 'c1', url: 'https://hooks.example/x', wire: '1.0' }, 10);
      // A row in the way of the change's second event (its status): the first (the artifact) is written, then the
      // second fails, and the whole change must go, with the delivery the first one queued.
      await db.query(`INSERT INTO task_events (task_seq, n, body, closes) SELECT seq, 2, '{}', false FROM tasks WHERE id = $1`, [t.id]);
      const change = store.transition(t.id, { state: 'TASK_STATE_COMPLETED', artifact: { artifactId: 'a', text: 'x' } }, 2000);
      await expect(change).rejects.toThrow(/duplicate key/);
      expect(await store.push.counts()).toEqual({ pending: 0, delivered: 0, failed: 0 });
      expect((await store.get(t.id))?.state).toBe('TASK_STATE_WORKING');
      await db.query('DELETE FROM task_events');
      await store.transition(t.id, { state: 'TASK_STATE_COMPLETED', artifact: { artifactId: 'a', text: 'x' } }, 2000);
      expect(await store.push.counts()).toEqual({ pending: 2, delivered: 0, failed: 0 });
    } finally {
      await db.end();
      await store.close();
    }
  });
});

describe('the push signing key on PostgreSQL (one key for every replica of a database)', () => {
  const jose = hostJose();
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-pg-push-key-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const storedRows = async (url: string) => {
    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      return (await db.query('SELECT jwk, origin FROM push_signing_key')).rows as Array<{ jwk: string; origin: string }>;
    } finally {
      await db.end();
    }
  };

  it('two stores used for the first time at once end with one stored key: both publish it, each verifies the other', async () => {
    const url = await postgres.freshDatabase();
    const stores = await Promise.all(['a', 'b'].map((r) => PgTaskStore.open(url, policy, { owner: `replica-${r}`, poolSize: 2 })));
    try {
      const keys = stores.map(
        (s, i) => new PushSigningKey(pushSigningKeyPath(path.join(dir, `concurrent-${i}`)), () => Promise.resolve(s.pushKey)),
      );
      const [jwksA, jwksB] = await Promise.all(keys.map((k) => k.jwks()));
      expect(jwksA).toEqual(jwksB);
      const rows = await storedRows(url);
      expect(rows.map((r) => r.origin)).toEqual(['generated']);
      expect(jwksA.keys[0]).not.toHaveProperty('d');
      const jwt = await keys[1].sign({ url: 'https://hooks.example/k', body: 'b', taskId: 't', event: 1 });
      const verified = await jose.jwtVerify(jwt, jose.createLocalJWKSet(jwksA as never), { audience: 'https://hooks.example/k' });
      expect(verified.payload.task_id).toBe('t');
      // No key file was written: the key lives in the database only.
      await expect(fs.stat(pushSigningKeyPath(path.join(dir, 'concurrent-0')))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it("imports a replica's key file into an empty table (its JWKS stays valid); another replica's different file is not used", async () => {
    const url = await postgres.freshDatabase();
    const copied = pushSigningKeyPath(path.join(dir, 'copied'));
    const pinned = await new PushSigningKey(copied).jwks();
    const other = pushSigningKeyPath(path.join(dir, 'other'));
    await new PushSigningKey(other).jwks();
    const first = await PgTaskStore.open(url, policy, { owner: 'replica-a' });
    const second = await PgTaskStore.open(url, policy, { owner: 'replica-b' });
    try {
      expect(await new PushSigningKey(copied, () => Promise.resolve(first.pushKey)).jwks()).toEqual(pinned);
      expect(await new PushSigningKey(other, () => Promise.resolve(second.pushKey)).jwks()).toEqual(pinned);
      const rows = await storedRows(url);
      expect(rows.map((r) => r.origin)).toEqual(['imported']);
      expect(JSON.parse(rows[0].jwk)).toEqual(JSON.parse(await fs.readFile(copied, 'utf8')));
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('a stored row that holds no key is an error naming the table, never quoting the row', async () => {
    const url = await postgres.freshDatabase();
    const store = await PgTaskStore.open(url, policy, { owner: 'replica-a' });
    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      await db.query(`INSERT INTO push_signing_key (slot, jwk, origin, created_at) VALUES (1, '{"d":"leak-me"}', 'generated', 0)`);
      const err = (await new PushSigningKey(pushSigningKeyPath(path.join(dir, 'bad')), () => Promise.resolve(store.pushKey))
        .jwks()
        .catch((e: unknown) => e)) as Error;
      expect(err.message).toBe('the push signing key stored in PostgreSQL (push_signing_key) is not a private P-256 JWK');
      expect(err.message).not.toContain('leak-me');
    } finally {
      await db.end();
      await store.close();
    }
  });
});
