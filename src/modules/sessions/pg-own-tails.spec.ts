import { PgOwnTails } from './pg-own-tails';
import type { AppendedLine } from './pg-session-writes';
import type { TranscriptLine, TranscriptRole } from './session-store.port';

const KEY = 'agent:main:tails';

function line(n: number, role: TranscriptRole = 'user'): TranscriptLine {
  return { id: `l${n}`, ts: new Date(1_000 + n).toISOString(), role, text: `line ${n}` };
}

/** What the store's append answered: the line's number, and whether that append created the session. */
function appended(n: number, created = false): AppendedLine {
  const entry = { sessionKey: KEY, sessionId: 's1', agentId: 'main', createdAt: '', updatedAt: '' } as AppendedLine['session']['entry'];
  return { session: { created, seq: 1, entry }, n };
}

describe('PgOwnTails (the transcripts a PostgreSQL replica wrote whole)', () => {
  afterEach(() => jest.useRealTimers());

  it('answers the history of a session it created, line by line as it appends', () => {
    const tails = new PgOwnTails();
    tails.appended(KEY, appended(1, true), line(1), 20);
    tails.appended(KEY, appended(2), line(2, 'assistant'), 20);
    tails.appended(KEY, appended(3, false), line(3, 'tool'), 20);
    expect(tails.history(KEY, 40, false)?.lines.map((l) => l.id)).toEqual(['l1', 'l2', 'l3']);
    expect(tails.history(KEY, 2, false)?.lines.map((l) => l.id)).toEqual(['l2', 'l3']);
    expect(tails.history(KEY, 40, true)?.lines.map((l) => l.id)).toEqual(['l1', 'l2']);
  });

  it('keeps nothing of a session another writer created', () => {
    const tails = new PgOwnTails();
    tails.appended(KEY, appended(4), line(4), 20);
    expect(tails.history(KEY, 40, false)).toBeUndefined();
  });

  it('drops the tail when a line comes out of turn (another replica wrote the one between)', () => {
    const tails = new PgOwnTails();
    tails.appended(KEY, appended(1, true), line(1), 20);
    tails.appended(KEY, appended(3), line(3), 20);
    expect(tails.history(KEY, 40, false)).toBeUndefined();
  });

  it("drops the tail on another replica's notice, and every tail when notices are no longer heard", () => {
    const tails = new PgOwnTails();
    tails.appended(KEY, appended(1, true), line(1), 20);
    tails.appended('agent:main:other', appended(1, true), line(1), 20);
    tails.drop(KEY);
    expect(tails.history(KEY, 40, false)).toBeUndefined();
    expect(tails.history('agent:main:other', 40, false)).toBeDefined();
    tails.clear();
    expect(tails.history('agent:main:other', 40, false)).toBeUndefined();
  });

  it('sends a read more than a second after its last append to the database', () => {
    jest.useFakeTimers({ now: 0 });
    const tails = new PgOwnTails();
    tails.appended(KEY, appended(1, true), line(1), 20);
    jest.advanceTimersByTime(900);
    expect(tails.history(KEY, 40, false)).toBeDefined();
    jest.advanceTimersByTime(200);
    expect(tails.history(KEY, 40, false)).toBeUndefined();
  });
});
