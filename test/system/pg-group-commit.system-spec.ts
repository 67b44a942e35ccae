import { Client } from 'pg';
import { PgTaskStore } from '../../src/modules/a2a-channel/store/postgres/pg-task.store';
import type { RetentionPolicy } from '../../src/modules/a2a-channel/store/task-store.port';
import { PgSessionStore } from '../../src/modules/sessions/pg-session.store';
import type { TranscriptAppended } from '../../src/modules/sessions/session-store.port';
import { postgresForSuite } from './support/postgres';

/**
 * The group commits of the PostgreSQL stores (common/storage/pg-statement-batch.ts) against a real server: the
 * appends of many sessions and the inserts of many tasks go as one statement each, a write the server refuses fails
 * alone while the others of its batch are stored, and a transcript tail kept in memory gives way to another replica's
 * line.
 */

jest.setTimeout(60_000);

const postgres = postgresForSuite('groupcommit');
const policy: RetentionPolicy = { terminalRetentionMs: 86_400_000, maxTerminalPerPeer: 100, idleExpiryMs: 3_600_000 };

async function sql<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Every statement the stores' pg clients send, by text (counted on the way through; the client still sends it). */
function countStatements(): { texts: string[]; restore: () => void } {
  const texts: string[] = [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client: PgClient } = require('pg') as typeof import('pg');
  const original = PgClient.prototype.query;
  const spy = jest.spyOn(PgClient.prototype, 'query').mockImplementation(function (this: unknown, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
    texts.push(text ?? '');
    return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  return { texts, restore: () => spy.mockRestore() };
}

const openSessions = (url: string) => PgSessionStore.open(url, { configuredAgents: () => ['main'], poolSize: 4 });

describe('PostgreSQL group commit (system)', () => {
  it('stores the lines of twenty new sessions appended at once in fewer statements than lines, each numbered 1', async () => {
    const url = await postgres.freshDatabase();
    const store = await openSessions(url);
    const counted = countStatements();
    try {
      const keys = Array.from({ length: 20 }, (_, i) => `agent:main:batch-${i}`);
      await Promise.all(keys.map((key, i) => store.append(key, { role: 'user', text: `hello ${i}` })));
      const batched = counted.texts.filter((t) => t.includes('jsonb_to_recordset'));
      expect(batched.length).toBeGreaterThanOrEqual(1);
      expect(counted.texts.filter((t) => t.includes('INSERT INTO transcript_lines')).length).toBeLessThan(20);
      const rows = await sql<{ session_key: string; n: number; line: string }>(
        url,
        'SELECT s.session_key, l.n, l.line FROM transcript_lines l JOIN sessions s ON s.seq = l.session_seq ORDER BY s.session_key',
      );
      expect(rows).toHaveLength(20);
      for (const row of rows) {
        expect(row.n).toBe(1);
        expect(JSON.parse(row.line).text).toBe(`hello ${row.session_key.split('-')[1]}`);
      }
      // A second line of each comes after the first.
      await Promise.all(keys.map((key) => store.append(key, { role: 'assistant', text: 'again' })));
      for (const key of keys.slice(0, 3)) {
        const history = await store.history(key, { limit: 10 });
        expect(history.lines.map((l) => l.role)).toEqual(['user', 'assistant']);
      }
      const [{ n }] = await sql<{ n: number }>(url, 'SELECT MAX(n)::int AS n FROM transcript_lines');
      expect(n).toBe(2);
    } finally {
      counted.restore();
      await store.close();
    }
  });

  it('fails only the append the server refuses; the others of its batch are stored', async () => {
    const url = await postgres.freshDatabase();
    const store = await openSessions(url);
    try {
      await sql(
        url,
        `CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF NEW.line LIKE '%refuse me%' THEN RAISE EXCEPTION 'this line is refused'; END IF; RETURN NEW; END $$;
         CREATE TRIGGER test_refuse BEFORE INSERT ON transcript_lines FOR EACH ROW EXECUTE FUNCTION test_refuse();`,
      );
      const texts = ['first', 'refuse me', 'third', 'fourth'];
      const outcomes = await Promise.allSettled(texts.map((text, i) => store.append(`agent:main:refusal-${i}`, { role: 'user', text })));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason.message).toMatch(/this line is refused/);
      const stored = await sql<{ line: string }>(url, 'SELECT line FROM transcript_lines');
      expect(stored.map((r) => JSON.parse(r.line).text).sort()).toEqual(['first', 'fourth', 'third']);
      // The refused append left no session behind.
      const sessions = await sql<{ session_key: string }>(url, 'SELECT session_key FROM sessions ORDER BY session_key');
      expect(sessions.map((s) => s.session_key)).toEqual(['agent:main:refusal-0', 'agent:main:refusal-2', 'agent:main:refusal-3']);
    } finally {
      await store.close();
    }
  });

  it('inserts tasks made together in one statement and fails only a duplicate id', async () => {
    const url = await postgres.freshDatabase();
    const store = await PgTaskStore.open(url, policy, { owner: 'replica-a', poolSize: 4 });
    const task = (id: string) => ({
      id,
      peer: id.startsWith('b') ? 'beta' : 'alpha',
      contextId: `ctx-${id}`,
      messageId: `m-${id}`,
      state: 'TASK_STATE_COMPLETED' as const,
      history: [],
      createdAt: 1000,
      updatedAt: 1000,
    });
    const counted = countStatements();
    try {
      await store.insert(task('a0'));
      const ids = ['a1', 'b2', 'a0', 'b3', 'a4'];
      const outcomes = await Promise.allSettled(ids.map((id) => store.insert(task(id))));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      expect((outcomes[2] as PromiseRejectedResult).reason.message).toMatch(/duplicate key/);
      expect(counted.texts.some((t) => t.includes('jsonb_populate_recordset'))).toBe(true);
      const rows = await sql<{ id: string; peer: string }>(url, 'SELECT id, peer FROM tasks ORDER BY id');
      expect(rows.map((r) => r.id)).toEqual(['a0', 'a1', 'a4', 'b2', 'b3']);
      expect((await store.get('b3'))?.state).toBe('TASK_STATE_COMPLETED');
      // The finished tasks are counted per peer as one by one.
      const counts = await sql<{ peer: string; terminal: number }>(url, 'SELECT peer, terminal::int FROM task_peer_counts ORDER BY peer');
      expect(counts).toEqual([
        { peer: 'alpha', terminal: 3 },
        { peer: 'beta', terminal: 2 },
      ]);
    } finally {
      counted.restore();
      await store.close();
    }
  });

  it("reads another replica's line once its notice comes, though the session's tail was kept in memory", async () => {
    const url = await postgres.freshDatabase();
    const [a, b] = await Promise.all([openSessions(url), openSessions(url)]);
    try {
      const key = 'agent:main:shared-tail';
      await a.append(key, { role: 'user', text: 'from a' });
      expect((await a.history(key, { limit: 40 })).lines.map((l) => l.text)).toEqual(['from a']);
      const heard = new Promise<TranscriptAppended>((resolve) => a.onAppend(resolve));
      await b.append(key, { role: 'assistant', text: 'from b' });
      await heard;
      expect((await a.history(key, { limit: 40 })).lines.map((l) => l.text)).toEqual(['from a', 'from b']);
      // And a's next line follows b's.
      await a.append(key, { role: 'user', text: 'a again' });
      expect((await a.history(key, { limit: 40 })).lines.map((l) => l.text)).toEqual(['from a', 'from b', 'a again']);
      expect((await b.history(key, { limit: 40 })).lines.map((l) => l.text)).toEqual(['from a', 'from b', 'a again']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
