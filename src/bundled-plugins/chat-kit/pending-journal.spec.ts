import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PendingJournal } from './pending-journal';

interface Entry {
  id: string;
  key: string;
  replies: string[];
}

describe('PendingJournal', () => {
  let dir: string;
  let file: string;
  const open = (remembered?: number) => PendingJournal.open<Entry>(file, { what: 'the test journal', idOf: (e) => e.id, remembered });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pending-journal-'));
    file = path.join(dir, 'accounts', 'a', 'journal.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps pending entries and their replies across a reopen, in a file only its owner can read', () => {
    const journal = open();
    journal.add({ id: 'm1', key: 'c:1', replies: [] });
    journal.update('m1', (e) => e.replies.push('r1'));
    journal.update('nobody', (e) => e.replies.push('never'));
    const again = open();
    expect(again.pending()).toEqual([{ id: 'm1', key: 'c:1', replies: ['r1'] }]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['journal.json']);
  });

  it('remembers a finished id and the keys it asks for, the newest `remembered` of them', () => {
    const journal = open(3);
    journal.add({ id: 'm1', key: 'c:1', replies: [] });
    journal.finish('m1', (e) => [e.key]);
    expect(journal.pending()).toEqual([]);
    expect([journal.handled('m1'), journal.handled('c:1'), journal.handled('m2')]).toEqual([true, true, false]);
    journal.finish('m2');
    journal.finish('m3');
    const again = open(3);
    expect([again.handled('m1'), again.handled('c:1'), again.handled('m2'), again.handled('m3')]).toEqual([false, true, true, true]);
  });

  it('refuses a file it cannot read, naming it and what to do, instead of starting empty', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version":2}');
    expect(() => open()).toThrow(`the test journal ${file} cannot be read (not a journal of version 1); move it away to start afresh`);
    fs.writeFileSync(file, '{not json');
    expect(() => open()).toThrow(/the test journal .* cannot be read \(.*JSON.*\); move it away to start afresh/);
  });
});
