import { Client } from 'pg';
import type { AppliedRevision } from '../../src/modules/config-plan/history/config-history-store.port';
import { PgConfigHistoryStore } from '../../src/modules/config-plan/history/pg-config-history.store';
import { describeConfigHistoryStoreContract } from '../support/config-history-store-contract';
import { postgresForSuite } from './support/postgres';

jest.setTimeout(90_000);

const postgres = postgresForSuite('config_history');

describeConfigHistoryStoreContract('PostgreSQL', async () => {
  const url = await postgres.freshDatabase();
  const opened: PgConfigHistoryStore[] = [];
  return {
    open: async () => {
      const store = await PgConfigHistoryStore.open(url);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close().catch(() => undefined);
    },
  };
});

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

const applied = (n: number): AppliedRevision => ({
  revision: n.toString(16).padStart(12, '0'),
  appliedAt: new Date(Date.UTC(2026, 0, 1, 0, n)),
  source: 'file',
  subject: 'file',
  summary: `change ${n}`,
  contentHash: `content-${n}`,
  previousHash: n === 1 ? undefined : `content-${n - 1}`,
  files: [{ path: 'openclaw.json', text: `{ n: ${n} }\n` }],
});

describe('PgConfigHistoryStore (PostgreSQL only)', () => {
  it('four replicas applying the same 20 edits, each at its own pace, record each edit once and in order', async () => {
    const url = await postgres.freshDatabase();
    const replicas = await Promise.all([1, 2, 3, 4].map(() => PgConfigHistoryStore.open(url)));
    try {
      const outcomes = await Promise.all(
        replicas.map(async (store) => {
          const seen: string[] = [];
          for (let n = 1; n <= 20; n++) seen.push(await store.add(applied(n)));
          return seen;
        }),
      );
      expect(outcomes.flat().filter((o) => o === 'added')).toHaveLength(20);
      const rows = (await query(url, 'SELECT revision FROM config_revisions ORDER BY seq')) as Array<{ revision: string }>;
      expect(rows.map((r) => r.revision)).toEqual(Array.from({ length: 20 }, (_, i) => applied(i + 1).revision));
    } finally {
      for (const store of replicas) await store.close();
    }
  });

  it('applies its migration once when replicas start together, and names the server, never the password, when it cannot start', async () => {
    const url = await postgres.freshDatabase();
    const both = await Promise.all([PgConfigHistoryStore.open(url), PgConfigHistoryStore.open(url)]);
    for (const store of both) await store.close();
    expect(await query(url, `SELECT version, name FROM schema_migrations WHERE scope = 'config-history'`)).toEqual([
      { version: 1, name: 'config revisions' },
    ]);

    const closed = `postgres://clawgate:do-not-print-me@127.0.0.1:${postgres.server.port + 1}/nowhere`;
    const unreachable = await PgConfigHistoryStore.open(closed).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(unreachable?.name).toBe('PostgresUnavailableError');
    expect(unreachable?.message).toMatch(/^the config history could not start: PostgreSQL at 127\.0\.0\.1:\d+\/nowhere is unreachable/);
    expect(unreachable?.message).not.toContain('do-not-print-me');

    const wrongPassword = url.replace(/:[^:@/]+@/, ':do-not-print-me@');
    const refused = await PgConfigHistoryStore.open(wrongPassword).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(refused?.message).toMatch(/the config history could not start: PostgreSQL at 127\.0\.0\.1:\d+\/config_history_\d+/);
    expect(refused?.message).toContain('password authentication failed');
    expect(refused?.message).not.toContain('do-not-print-me');
  });
});
