import { SessionTail, TAIL_BYTES, TAIL_LINES } from './session-tail';
import type { TranscriptLine } from './session-store.port';

const line = (n: number): TranscriptLine => ({ id: `l${n}`, ts: '2026-12-01T00:00:00.000Z', role: 'user', text: `m${n}` });

describe('SessionTail', () => {
  it('keeps the newest TAIL_LINES lines and stops being complete once it drops one', () => {
    const tail = SessionTail.empty();
    for (let i = 0; i < TAIL_LINES; i++) tail.push(line(i), 100);
    expect(tail.complete).toBe(true);
    tail.push(line(TAIL_LINES), 100);
    expect(tail.lines.map((l) => l.id)).toEqual(Array.from({ length: TAIL_LINES }, (_, i) => `l${i + 1}`));
    expect(tail.complete).toBe(false);
  });

  it('stays within TAIL_BYTES however large the lines, keeping at most the newest', () => {
    const tail = SessionTail.of([line(0), line(1)], [10, 10], true);
    for (let i = 2; i < 50; i++) tail.push(line(i), 20_000);
    expect(tail.lines.length * 20_000).toBeLessThanOrEqual(TAIL_BYTES);
    expect(tail.lines.at(-1)?.id).toBe('l49');
    expect(tail.complete).toBe(false);
    // A single line larger than the budget is not kept at all.
    tail.push(line(50), TAIL_BYTES + 1);
    expect(tail.lines).toEqual([]);
  });
});
