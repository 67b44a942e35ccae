import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuditEntry, readAuditPage } from './audit-page';

const entry = (i: number, extra = ''): AuditEntry => ({
  ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  subject: `token:user-${i}${extra}`,
  role: 'admin',
  ip: '127.0.0.1',
  method: 'POST',
  path: `/admin/agents/${i}`,
  status: 201,
  revision: 'abcdefabcdef',
});

describe('readAuditPage', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-audit-'));
    file = path.join(dir, 'audit.jsonl');
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('answers an empty page when there is no log yet', async () => {
    await expect(readAuditPage(file, 10)).resolves.toEqual({ entries: [], next: null });
  });

  it('pages newest first with a cursor until the start, across chunk boundaries and multi-byte text', async () => {
    // ~1000 lines of ~300 bytes: several 64 KiB chunks, with "ü" bytes straddling some chunk edges.
    const all = Array.from({ length: 1000 }, (_, i) => entry(i, 'ü'.repeat(60)));
    await fs.writeFile(file, all.map((e) => JSON.stringify(e) + '\n').join(''));
    const seen: AuditEntry[] = [];
    let before: number | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await readAuditPage(file, 37, before);
      seen.push(...page.entries);
      if (page.next === null) break;
      expect(page.entries).toHaveLength(37);
      before = page.next;
    }
    expect(seen).toEqual([...all].reverse());
  });

  it('skips torn or corrupt lines instead of failing', async () => {
    await fs.writeFile(file, `${JSON.stringify(entry(1))}\nnot json\n${JSON.stringify(entry(2))}\n{"ts":"2026-01-01T00:00:0`);
    const page = await readAuditPage(file, 10);
    expect(page.entries.map((e) => e.subject)).toEqual(['token:user-2', 'token:user-1']);
    expect(page.next).toBeNull();
  });

  it('gives next = null when the page ends exactly at the first line', async () => {
    await fs.writeFile(file, [entry(1), entry(2)].map((e) => JSON.stringify(e) + '\n').join(''));
    const page = await readAuditPage(file, 2);
    expect(page.entries).toHaveLength(2);
    expect(page.next).toBeNull();
    const first = await readAuditPage(file, 1);
    expect(first.entries[0].subject).toBe('token:user-2');
    expect((await readAuditPage(file, 5, first.next!)).entries.map((e) => e.subject)).toEqual(['token:user-1']);
  });
});
