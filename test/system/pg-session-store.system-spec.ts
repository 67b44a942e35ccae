import { Client } from 'pg';
import { PgSessionStore } from '../../src/modules/sessions/pg-session.store';
import { rowFromEntry } from '../../src/modules/sessions/session-database';
import type { TranscriptAppended } from '../../src/modules/sessions/session-store.port';
import { describeSessionStoreContract } from '../support/session-store-contract';
import { postgresForSuite } from './support/postgres';

jest.setTimeout(90_000);

const AGENTS = ['main', 'ops'];
const postgres = postgresForSuite('sessions');

/** One statement on its own connection: what another process (an operator with psql) does. */
async function query<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

const openStore = (url: string, poolSize = 4) => PgSessionStore.open(url, { configuredAgents: () => AGENTS, poolSize });

describeSessionStoreContract('PostgreSQL', async () => {
  const url = await postgres.freshDatabase();
  const opened: PgSessionStore[] = [];
  return {
    open: async () => {
      const store = await openStore(url);
      opened.push(store);
      return store;
    },
    seed: async (entries) => {
      for (const entry of entries) {
        const row = rowFromEntry(entry);
        await query(
          url,
          `INSERT INTO sessions (session_key, session_id, agent_id, label, spawned_by, created_at, updated_at, delivery_context)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [row.session_key, row.session_id, row.agent_id, row.label, row.spawned_by, row.created_at, row.updated_at, row.delivery_context],
        );
      }
    },
    damageLastLine: async (text) => {
      const [row] = await query<{ n: number }>(
        url,
        `UPDATE transcript_lines SET line = $1 WHERE (session_seq, n) =
           (SELECT session_seq, n FROM transcript_lines ORDER BY session_seq DESC, n DESC LIMIT 1) RETURNING n`,
        [text],
      );
      return row.n;
    },
    dispose: async () => {
      for (const store of opened) await store.close();
    },
  };
});

describe('PgSessionStore with two replicas (PostgreSQL only)', () => {
  let url: string;
  let a: PgSessionStore;
  let b: PgSessionStore;
  beforeEach(async () => {
    url = await postgres.freshDatabase();
    // Two pools: two replicas, each with its own connections and its own chains of writes.
    [a, b] = await Promise.all([openStore(url), openStore(url)]);
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });

  it('creates one session when both create the same key at once, with or without a line', async () => {
    const [fromA, fromB] = await Promise.all([a.getOrCreate('agent:main:shared'), b.getOrCreate('agent:main:shared')]);
    expect(fromB.sessionId).toBe(fromA.sessionId);
    const lines = await Promise.all([
      a.append('agent:main:racing', { role: 'user', text: 'from a' }, { deliveryContext: { channel: 'a2a' } }),
      b.append('agent:main:racing', { role: 'user', text: 'from b' }, { deliveryContext: { channel: 'a2a' } }),
    ]);
    expect(await query(url, 'SELECT count(*)::int AS n FROM sessions WHERE session_key = $1', ['agent:main:racing'])).toEqual([{ n: 1 }]);
    expect((await b.history('agent:main:racing')).lines.map((l) => l.id).sort()).toEqual(lines.map((l) => l.id).sort());
  });

  it('numbers the lines of one session 1..n when both append at once, each replica keeping its own call order', async () => {
    const key = 'agent:main:busy';
    await Promise.all([
      ...Array.from({ length: 100 }, (_, i) => a.append(key, { role: 'user', text: `a${i}` })),
      ...Array.from({ length: 100 }, (_, i) => b.append(key, { role: 'assistant', text: `b${i}` })),
    ]);
    const numbers = await query<{ n: number }>(
      url,
      'SELECT n FROM transcript_lines WHERE session_seq = (SELECT seq FROM sessions WHERE session_key = $1) ORDER BY n',
      [key],
    );
    expect(numbers.map((r) => r.n)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const texts = (await a.history(key)).lines.map((l) => l.text);
    expect(texts).toHaveLength(200);
    expect(texts.filter((t) => t.startsWith('a'))).toEqual(Array.from({ length: 100 }, (_, i) => `a${i}`));
    expect(texts.filter((t) => t.startsWith('b'))).toEqual(Array.from({ length: 100 }, (_, i) => `b${i}`));
    expect((await b.history(key)).lines.map((l) => l.text)).toEqual(texts);
    expect((await b.transcriptVersions('main'))[0].version).toBe(200);
  });

  it("tells each replica's append listeners of the lines the other one commits, once each", async () => {
    const heardByB: TranscriptAppended[] = [];
    const heardByA: TranscriptAppended[] = [];
    b.onAppend((e) => heardByB.push(e));
    a.onAppend((e) => heardByA.push(e));
    await a.append('agent:main:heard', { role: 'user', text: 'one' });
    await a.append('agent:main:heard', { role: 'user', text: 'two' });
    await expect(a.append('agent:main:heard', { role: 'user', text: 'x' }, { spawnedBy: 'agent:main:heard' })).rejects.toThrow();
    const { sessionId } = (await b.get('agent:main:heard'))!;
    const event = { agentId: 'main', sessionKey: 'agent:main:heard', sessionId };
    for (let i = 0; i < 50 && heardByB.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(heardByB).toEqual([event, event]);
    expect(heardByA).toEqual([event, event]);
  });

  it('lets one of two replicas claim a label, and the other sees the holder', async () => {
    await a.getOrCreate('agent:main:one');
    await b.getOrCreate('agent:main:two');
    const results = await Promise.allSettled([a.setLabel('agent:main:one', 'lead'), b.setLabel('agent:main:two', 'lead')]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const holder = await b.resolveLabel('main', 'lead');
    expect(await a.resolveLabel('main', 'lead')).toBe(holder);
    expect((await a.get(holder!))?.label).toBe('lead');
  });

  it('applies its migration once when replicas start together, and names the server, never the password, when it cannot start', async () => {
    const more = await Promise.all([openStore(url, 1), openStore(url, 1)]);
    for (const store of more) await store.close();
    expect(await query(url, `SELECT version FROM schema_migrations WHERE scope = 'sessions'`)).toEqual([{ version: 1 }]);
    const closed = `postgres://clawgate:do-not-print-me@127.0.0.1:${postgres.server.port + 1}/nowhere`;
    const err = await openStore(closed).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/the session store could not start: PostgreSQL at 127\.0\.0\.1:\d+\/nowhere is unreachable/);
    expect(err?.message).not.toContain('do-not-print-me');
  });
});
