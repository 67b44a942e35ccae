import { LRUCache } from 'lru-cache';
import type { AppendedLine } from './pg-session-writes';
import type { SessionHistory, TranscriptLine } from './session-store.port';
import { SessionTail } from './session-tail';
import { withoutTools } from './transcript-jsonl';

/** Transcript tails kept in memory (each within TAIL_LINES and TAIL_BYTES). */
const TAIL_CACHE_SIZE = 1_000;
/**
 * How long after this store's last append to a session its tail answers for it. A run reads its history right after
 * its own line (within milliseconds); a later read goes to the database, so a notice that is slow or lost costs no
 * more than this.
 */
const TRUSTED_MS = 1_000;

/** The last lines of a session as this store wrote them, and the number of the last one. */
interface OwnTail {
  tail: SessionTail;
  n: number;
  /** performance.now() of the store's last append to the session. */
  at: number;
}

/**
 * The tails of the transcripts a PostgreSQL session store has written whole, so a run's history read right after its
 * own line costs no round trip. A tail starts with the append that created its session (line 1) and follows each of
 * the store's own appends whose number comes next; a line out of turn (another replica's, whose notice has not come
 * yet), another replica's append notice or a lost notice connection drops it, and the database answers again; so does
 * any read more than TRUSTED_MS after the store's last append to the session. Nothing read from the database is kept:
 * only what this store knows it wrote, in order.
 */
export class PgOwnTails {
  private readonly tails = new LRUCache<string, OwnTail>({ max: TAIL_CACHE_SIZE });

  /** After one of this store's appends committed (`size`: the length of the line's JSON). */
  appended(key: string, appended: AppendedLine, line: TranscriptLine, size: number): void {
    if (appended.session.created && appended.n === 1) {
      const tail = SessionTail.empty();
      tail.push(line, size);
      this.tails.set(key, { tail, n: 1, at: performance.now() });
      return;
    }
    const own = this.tails.peek(key);
    if (!own) return;
    if (own.n + 1 !== appended.n) {
      this.tails.delete(key);
      return;
    }
    own.tail.push(line, size);
    own.n = appended.n;
    own.at = performance.now();
  }

  /** Another replica appended to the session. */
  drop(key: string): void {
    this.tails.delete(key);
  }

  /** The other replicas' notices are no longer heard (their connection was lost): every tail may be behind. */
  clear(): void {
    this.tails.clear();
  }

  /** The history asked for, when the kept tail holds it all; undefined sends the caller to the database. */
  history(key: string, limit: number | undefined, skipTools: boolean): SessionHistory | undefined {
    const own = this.tails.get(key);
    if (!own || performance.now() - own.at > TRUSTED_MS) return undefined;
    const lines = skipTools ? withoutTools([...own.tail.lines]) : [...own.tail.lines];
    if (own.tail.complete) return { lines: limit === undefined ? lines : lines.slice(-limit), warnings: [] };
    if (limit !== undefined && lines.length >= limit) return { lines: lines.slice(-limit), warnings: [] };
    return undefined;
  }
}
