import type { ConfigChangeSource } from '../../src/common/auth/config-actor';
import {
  type AppliedRevision,
  type ConfigHistoryStore,
  type HistoryEntry,
  KEPT_REVISIONS,
} from '../../src/modules/config-plan/history/config-history-store.port';

/** Storage for one test: opening it again is another process (a restart, or another replica when shared). */
export interface ConfigHistoryStoreFixture {
  open(): Promise<ConfigHistoryStore>;
  /** Closes what is still open and removes the storage. */
  dispose(): Promise<void>;
}

/** Content `n` of the config: its hash, its revision (12 hex) and its files, one with an include and a `${VAR}`. */
const hashOf = (n: number) => `hash-${n}`.padEnd(64, '0');
const revisionOf = (n: number) => n.toString(16).padStart(12, '0');

/** The application of content `n` that replaced content `previous` (none: found at start). */
function applied(
  n: number,
  previous: number | undefined,
  by: { source?: ConfigChangeSource; subject?: string; summary?: string } = {},
): AppliedRevision {
  return {
    revision: revisionOf(n),
    appliedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
    source: by.source ?? 'file',
    subject: by.subject ?? (by.source && by.source !== 'file' ? `token:ops-${n}` : 'file'),
    summary: by.summary ?? `changed agents (${n})`,
    contentHash: hashOf(n),
    previousHash: previous === undefined ? undefined : hashOf(previous),
    files: [
      { path: 'openclaw.json', text: `{ agents: { $include: "agents.json5" }, // n=${n}\n  token: "\${TOKEN}" }\n` },
      { path: 'agents.json5', text: `{ list: [{ id: "main" }] } // ünïcode ✓ ${n}\n` },
    ],
  };
}

/** What the store hands back for an application: the entry without `previousHash`, with a `seq`. */
const stored = (a: AppliedRevision): Omit<HistoryEntry, 'seq'> => {
  const { previousHash: _previous, ...entry } = a;
  return entry;
};
const revisions = (entries: HistoryEntry[]) => entries.map((e) => e.revision);

/** Adds contents 1..n in order, each replacing the one before (1 found at start). */
async function chain(store: ConfigHistoryStore, n: number): Promise<void> {
  for (let i = 1; i <= n; i++) await store.add(applied(i, i === 1 ? undefined : i - 1));
}

/**
 * What every ConfigHistoryStore does (config-history-store.port.ts), on each backend: SQLite in `npm test`
 * (src/modules/config-plan/history/sqlite-config-history.store.spec.ts), PostgreSQL in the system tier
 * (test/system/pg-config-history-store.system-spec.ts).
 */
export function describeConfigHistoryStoreContract(name: string, createFixture: () => Promise<ConfigHistoryStoreFixture>): void {
  describe(`ConfigHistoryStore contract: ${name}`, () => {
    let fixture: ConfigHistoryStoreFixture;
    let store: ConfigHistoryStore;

    beforeEach(async () => {
      fixture = await createFixture();
      store = await fixture.open();
    });
    afterEach(async () => {
      await store.close();
      await fixture.dispose();
    });

    it('an empty history has no latest entry, an empty page and no revision to find', async () => {
      expect(await store.latest()).toBeUndefined();
      expect(await store.page(10)).toEqual([]);
      expect(await store.find(revisionOf(1))).toBeUndefined();
    });

    it('keeps each entry as added, newest last by seq; a reopened store is the same', async () => {
      await chain(store, 3);
      const page = await store.page(10);
      expect(page.map(({ seq: _seq, ...e }) => e)).toEqual([3, 2, 1].map((n) => stored(applied(n, n - 1))));
      expect(page[0].seq).toBeGreaterThan(page[1].seq);
      expect(page[1].seq).toBeGreaterThan(page[2].seq);
      expect(await store.latest()).toEqual(page[0]);
      await store.close();
      store = await fixture.open();
      expect(await store.page(10)).toEqual(page);
    });

    it('pages newest first before a seq, to the first entry', async () => {
      await chain(store, 5);
      const first = await store.page(2);
      expect(revisions(first)).toEqual([revisionOf(5), revisionOf(4)]);
      const second = await store.page(2, first[1].seq);
      expect(revisions(second)).toEqual([revisionOf(3), revisionOf(2)]);
      expect(revisions(await store.page(2, second[1].seq))).toEqual([revisionOf(1)]);
      expect(await store.page(2, (await store.page(10))[4].seq)).toEqual([]);
      // A position stays valid while newer entries are added.
      await store.add(applied(6, 5));
      expect(revisions(await store.page(2, first[1].seq))).toEqual([revisionOf(3), revisionOf(2)]);
    });

    it('finds the latest application of a revision with the entry before it', async () => {
      await chain(store, 3);
      const [third, second, first] = await store.page(10);
      expect(await store.find(revisionOf(1))).toEqual({ entry: first, previous: undefined });
      expect(await store.find(revisionOf(2))).toEqual({ entry: second, previous: first });
      // Rolled back to 1: its latest application is the rollback, after 3.
      expect(await store.add(applied(1, 3, { source: 'rollback', subject: 'token:root' }))).toBe('added');
      const found = await store.find(revisionOf(1));
      expect(found?.entry).toMatchObject({ revision: revisionOf(1), source: 'rollback', subject: 'token:root' });
      expect(found?.previous).toEqual(third);
      expect(await store.find('abcdefabcdef')).toBeUndefined();
    });

    it(`keeps the newest ${KEPT_REVISIONS} applications`, async () => {
      await chain(store, KEPT_REVISIONS + 3);
      const all = await store.page(KEPT_REVISIONS + 10);
      expect(all).toHaveLength(KEPT_REVISIONS);
      expect(all[0].revision).toBe(revisionOf(KEPT_REVISIONS + 3));
      expect(all[KEPT_REVISIONS - 1].revision).toBe(revisionOf(4));
      expect(await store.find(revisionOf(3))).toBeUndefined();
      expect((await store.find(revisionOf(4)))?.previous).toBeUndefined();
      // A duplicate adds no row, so it deletes none.
      expect(await store.add(applied(KEPT_REVISIONS + 3, KEPT_REVISIONS + 2))).toBe('recorded');
      expect(await store.page(KEPT_REVISIONS + 10)).toEqual(all);
    });

    describe('one record per application, whoever applies it', () => {
      it('the same change applied again (another replica watching the same file) is recorded once', async () => {
        await chain(store, 2);
        expect(await store.add(applied(2, 1))).toBe('recorded');
        // Found at the start of another replica: the newest entry already has that content.
        expect(await store.add(applied(2, undefined, { summary: 'applied at start' }))).toBe('recorded');
        expect(revisions(await store.page(10))).toEqual([revisionOf(2), revisionOf(1)]);
      });

      it('an admin write recorded first keeps its caller when a file watcher records the same change', async () => {
        await chain(store, 1);
        expect(await store.add(applied(2, 1, { source: 'api', subject: 'token:alice' }))).toBe('added');
        expect(await store.add(applied(2, 1))).toBe('recorded');
        const page = await store.page(10);
        expect(page).toHaveLength(2);
        expect(page[0]).toMatchObject({ revision: revisionOf(2), source: 'api', subject: 'token:alice' });
      });

      it('a file edit recorded first takes the caller of the admin write that arrives after it', async () => {
        await chain(store, 1);
        expect(await store.add(applied(2, 1, { summary: 'seen by the watcher' }))).toBe('added');
        const [before] = await store.page(1);
        expect(await store.add(applied(2, 1, { source: 'api', subject: 'token:alice', summary: 'by the writer' }))).toBe('attributed');
        const page = await store.page(10);
        expect(page).toHaveLength(2);
        // Same row (position, time, files, summary), the writer's source and subject.
        expect(page[0]).toEqual({ ...before, source: 'api', subject: 'token:alice' });
        // A later replica's CLI note does not replace a caller already named.
        expect(await store.add(applied(2, 1, { source: 'cli', subject: 'cli:bob' }))).toBe('recorded');
        expect((await store.latest())?.subject).toBe('token:alice');
        expect(await store.add(applied(3, 2, { source: 'cli', subject: 'cli:bob' }))).toBe('added');
        expect(await store.add(applied(3, 2, { source: 'rollback', subject: 'token:carol' }))).toBe('recorded');
        expect(await store.latest()).toMatchObject({ source: 'cli', subject: 'cli:bob' });
      });

      it("replicas naming the same files with other revisions: the row shows the writer's", async () => {
        await chain(store, 1);
        const onB = { ...applied(2, 1), revision: 'bbbbbbbbbbbb' };
        expect(await store.add(onB)).toBe('added');
        expect(await store.add({ ...applied(2, 1, { source: 'rollback', subject: 'token:root' }), revision: 'aaaaaaaaaaaa' })).toBe(
          'attributed',
        );
        expect(await store.latest()).toMatchObject({ revision: 'aaaaaaaaaaaa', source: 'rollback', contentHash: onB.contentHash });
        expect(await store.find('bbbbbbbbbbbb')).toBeUndefined();
        expect(await store.add({ ...applied(2, 1), revision: 'cccccccccccc' })).toBe('recorded');
        expect(revisions(await store.page(10))).toEqual(['aaaaaaaaaaaa', revisionOf(1)]);
      });

      it('a rollback to an earlier revision is recorded; the other replicas applying it are not', async () => {
        await chain(store, 2);
        expect(await store.add(applied(1, 2, { source: 'rollback', subject: 'token:root' }))).toBe('added');
        expect(await store.add(applied(1, 2))).toBe('recorded');
        expect(revisions(await store.page(10))).toEqual([revisionOf(1), revisionOf(2), revisionOf(1)]);
        // A file edit back to content 2 is a new application too.
        expect(await store.add(applied(2, 1))).toBe('added');
        expect(revisions(await store.page(10))).toEqual([2, 1, 2, 1].map(revisionOf));
      });

      it('a replica that is behind records nothing for a change already recorded before a newer one', async () => {
        await chain(store, 3);
        expect(await store.add(applied(2, 1))).toBe('recorded');
        expect(await store.add(applied(3, 2))).toBe('recorded');
        expect(revisions(await store.page(10))).toEqual([3, 2, 1].map(revisionOf));
      });

      it('when the replaced content has no entry (a comment-only edit), only the newest entry counts', async () => {
        await chain(store, 2);
        const unrecorded = 99;
        expect(await store.add(applied(1, unrecorded))).toBe('added');
        expect(await store.add(applied(1, unrecorded))).toBe('recorded');
        expect(revisions(await store.page(10))).toEqual([1, 2, 1].map(revisionOf));
      });

      it('two stores on one storage adding the same applications at once record each once', async () => {
        const other = await fixture.open();
        try {
          await chain(store, 1);
          for (let n = 2; n <= 6; n++) {
            const outcomes = await Promise.all([
              store.add(applied(n, n - 1, n % 2 ? {} : { source: 'api', subject: 'token:alice' })),
              other.add(applied(n, n - 1)),
            ]);
            expect(outcomes.filter((o) => o === 'added')).toHaveLength(1);
          }
          const page = await other.page(10);
          expect(revisions(page)).toEqual([6, 5, 4, 3, 2, 1].map(revisionOf));
          // Whichever came first, the admin write's caller is what is kept.
          expect(page.filter((e) => e.source === 'api').map((e) => e.revision)).toEqual([6, 4, 2].map(revisionOf));
          expect(await store.page(10)).toEqual(page);
        } finally {
          await other.close();
        }
      });
    });
  });
}
