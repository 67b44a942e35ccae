import type { AuditEntry } from '../../src/modules/admin/audit-page';
import type { AuditStore } from '../../src/modules/admin/audit-store';

/** Storage for one test: opening it again is another process (a restart, or another replica when shared). */
export interface AuditStoreFixture {
  open(): Promise<AuditStore>;
  /** Closes what is still open and removes the storage. */
  dispose(): Promise<void>;
}

const entry = (i: number): AuditEntry => ({
  ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  subject: `token:ops-${i}`,
  role: 'admin',
  ip: '10.0.0.1',
  method: 'POST',
  path: `/admin/agents/a${i}`,
  status: 201,
  revision: 'r1',
});
const line = (i: number) => `${JSON.stringify(entry(i))}\n`;

/**
 * What every AuditStore does (audit-store.ts), on each backend: the file in `npm test` (src/modules/admin/audit-store.spec.ts),
 * PostgreSQL in the system tier (test/system/pg-audit-store.system-spec.ts).
 */
export function describeAuditStoreContract(name: string, createFixture: () => Promise<AuditStoreFixture>): void {
  describe(`AuditStore contract: ${name}`, () => {
    let fixture: AuditStoreFixture;
    let store: AuditStore;

    beforeEach(async () => {
      fixture = await createFixture();
      store = await fixture.open();
    });
    afterEach(async () => {
      await store.close();
      await fixture.dispose();
    });

    it('an empty log is one empty page', async () => {
      expect(await store.page(10)).toEqual({ entries: [], next: null });
    });

    it('pages newest first, following next as before, to the start of the log; a reopened log is the same', async () => {
      for (let i = 1; i <= 5; i++) await store.append(line(i));
      const first = await store.page(2);
      expect(first.entries.map((e) => e.subject)).toEqual(['token:ops-5', 'token:ops-4']);
      expect(first.next).not.toBeNull();
      const second = await store.page(2, first.next ?? undefined);
      expect(second.entries.map((e) => e.subject)).toEqual(['token:ops-3', 'token:ops-2']);
      const last = await store.page(2, second.next ?? undefined);
      expect(last).toEqual({ entries: [entry(1)], next: null });
      await store.close();
      store = await fixture.open();
      expect((await store.page(10)).entries).toEqual([5, 4, 3, 2, 1].map(entry));
    });

    it('a cursor stays valid while entries are appended after it', async () => {
      for (let i = 1; i <= 4; i++) await store.append(line(i));
      const first = await store.page(2);
      await store.append(line(5));
      const second = await store.page(2, first.next ?? undefined);
      expect(second.entries.map((e) => e.subject)).toEqual(['token:ops-2', 'token:ops-1']);
    });
  });
}
