import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readTranscript, readTranscriptTail } from './transcript-file';

describe('readTranscriptTail', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-tail-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const line = (i: number, text = `message ${i}`) => JSON.stringify({ id: `l${i}`, ts: '2026-01-01T00:00:00.000Z', role: 'user', text });

  it('returns the same last lines as a whole read, across chunk boundaries and multi-byte text', async () => {
    const file = path.join(dir, 't.jsonl');
    // ~300 KiB: several 64 KiB chunks; multi-byte characters so a chunk edge can fall inside a character.
    const lines = Array.from({ length: 1500 }, (_, i) => line(i, `消息 ${i} ${'é'.repeat(80)}`));
    await fs.writeFile(file, `${lines.join('\n')}\n`);
    const whole = await readTranscript(file);
    for (const n of [1, 7, 40, 700]) {
      const tail = await readTranscriptTail(file, n);
      expect(tail.complete).toBe(false);
      expect(tail.warnings).toEqual([]);
      expect(tail.lines.length).toBeGreaterThanOrEqual(n);
      expect(tail.lines.slice(-n)).toEqual(whole.lines.slice(-n));
    }
    const all = await readTranscriptTail(file, 5000);
    expect(all.complete).toBe(true);
    expect(all.lines).toEqual(whole.lines);
  });

  it('skips a torn last line with a warning and reports a missing file as missing', async () => {
    const file = path.join(dir, 'torn.jsonl');
    await fs.writeFile(file, `${line(1)}\n${line(2)}\n{"id":"l3","ts":`);
    const tail = await readTranscriptTail(file, 2);
    expect(tail.lines.map((l) => l.id)).toEqual(['l1', 'l2']);
    expect(tail.warnings).toEqual([expect.stringContaining('incomplete last line')]);
    expect(await readTranscriptTail(path.join(dir, 'none.jsonl'), 3)).toMatchObject({ missing: true, lines: [] });
  });
});
