import type { TranscriptLine } from '../sessions';
import { HISTORY_LINES, historyWindow } from './history-window';

const line = (id: string, role: TranscriptLine['role'], text = id, meta?: Record<string, unknown>): TranscriptLine => ({
  id,
  role,
  text,
  ts: '2026-01-01T00:00:00.000Z',
  meta,
});

/** `n` alternating user/assistant lines u0, a1, u2, … */
const turns = (n: number) => Array.from({ length: n }, (_, i) => line(`l${i}`, i % 2 === 0 ? 'user' : 'assistant'));

describe('historyWindow', () => {
  it('keeps the last HISTORY_LINES lines before the question, starting at a user line', () => {
    const lines = [...turns(HISTORY_LINES + 11), line('asked', 'user')];
    const window = historyWindow(lines, 'asked');
    // 51 earlier lines: the last 40 start at l11 (an assistant line), so the window starts at l12.
    expect(window.map((m) => m.text)).toEqual(lines.slice(12, -1).map((l) => l.text));
    expect(window[0].role).toBe('user');
  });

  it('leaves the asked line out wherever it is, without shrinking the window', () => {
    const lines = [...turns(10), line('asked', 'user'), line('later', 'assistant')];
    expect(historyWindow(lines, 'asked').map((m) => m.text)).toEqual([...turns(10).map((l) => l.text), 'later']);
    const long = [...turns(HISTORY_LINES), line('asked', 'user'), line('l40', 'user')];
    // 41 other lines: the window is the last 40 of them, l1 … l40, and begins at the first user line, l2.
    expect(historyWindow(long, 'asked').map((m) => m.text)).toEqual(
      [...long.slice(2, HISTORY_LINES), long[HISTORY_LINES + 1]].map((l) => l.text),
    );
  });

  it('maps tool lines with their call id, drops system lines and tool lines without one, and is empty with no user line', () => {
    const lines = [
      line('u', 'user'),
      line('t', 'tool', 'result', { toolCallId: 'c1', name: 'memory_search' }),
      line('bad', 'tool', 'no id', {}),
      line('s', 'system', 'run failed'),
      line('asked', 'user'),
    ];
    expect(historyWindow(lines, 'asked')).toEqual([
      { role: 'user', text: 'u' },
      { role: 'tool', toolCallId: 'c1', name: 'memory_search', text: 'result' },
    ]);
    expect(historyWindow([line('a', 'assistant'), line('asked', 'user')], 'asked')).toEqual([]);
  });

  it("makes each line's message once and shares it, frozen, with the windows of later runs", () => {
    const lines = turns(6);
    const first = historyWindow([...lines, line('q1', 'user')], 'q1');
    const later = historyWindow([...lines, line('q1', 'user'), line('a1', 'assistant'), line('q2', 'user')], 'q2');
    expect(later.slice(0, lines.length)).toEqual(first);
    later.slice(0, lines.length).forEach((message, i) => expect(message).toBe(first[i]));
    expect(Object.isFrozen(first[0])).toBe(true);
    // An equal line that is another object gets its own message: nothing is keyed by content.
    expect(historyWindow([line('l0', 'user', 'other text'), line('q', 'user')], 'q')[0].text).toBe('other text');
  });
});
