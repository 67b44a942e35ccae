import { PgAuditStore } from '../../src/modules/admin/audit-store';
import { describeAuditStoreContract } from '../support/audit-store-contract';
import { postgresForSuite } from './support/postgres';

jest.setTimeout(60_000);

const postgres = postgresForSuite('audit');

describeAuditStoreContract('PostgreSQL', async () => {
  const url = await postgres.freshDatabase();
  const opened: PgAuditStore[] = [];
  return {
    open: async () => {
      const store = await PgAuditStore.open(url);
      opened.push(store);
      return store;
    },
    dispose: async () => {
      for (const store of opened) await store.close().catch(() => undefined);
    },
  };
});

describe('PgAuditStore (PostgreSQL only)', () => {
  it('is one log for every replica: entries appended by two stores page as one, in commit order', async () => {
    const url = await postgres.freshDatabase();
    const [a, b] = await Promise.all([PgAuditStore.open(url), PgAuditStore.open(url)]);
    try {
      const line = (subject: string) =>
        `${JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', subject, role: 'admin', ip: null, method: 'POST', path: '/admin/x', status: 200, revision: 'r' })}\n`;
      await a.append(line('from-a'));
      await b.append(line('from-b'));
      await a.append(line('from-a-again'));
      expect((await b.page(10)).entries.map((e) => e.subject)).toEqual(['from-a-again', 'from-b', 'from-a']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
