import type { TranscriptLine } from './session-store.port';

/** Lines kept per tail: the runner's history window (40 lines) with room to spare. */
export const TAIL_LINES = 64;
/**
 * Bytes (of their JSON) kept per tail. Lines can be large (a pasted document, a tool result), and a cache of
 * whole tails must stay bounded in memory, not only in count: 1,000 tails × 64 KiB at most.
 */
export const TAIL_BYTES = 64 * 1024;

/**
 * The last lines of one session as committed, oldest first, within TAIL_LINES and TAIL_BYTES. `complete` while
 * they are the whole transcript (a new session starts complete and empty); dropping a line ends that.
 */
export class SessionTail {
  private readonly kept: TranscriptLine[] = [];
  private readonly sizes: number[] = [];
  private bytes = 0;

  private constructor(public complete: boolean) {}

  static empty(): SessionTail {
    return new SessionTail(true);
  }

  /** From a read of the last lines; `complete` when the read reached the first line. */
  static of(lines: TranscriptLine[], sizes: number[], complete: boolean): SessionTail {
    const tail = new SessionTail(complete);
    lines.forEach((line, i) => tail.push(line, sizes[i]));
    return tail;
  }

  get lines(): readonly TranscriptLine[] {
    return this.kept;
  }

  /** Adds the newest line (`size`: the length of its JSON). */
  push(line: TranscriptLine, size: number): void {
    this.kept.push(line);
    this.sizes.push(size);
    this.bytes += size;
    while (this.kept.length > TAIL_LINES || (this.bytes > TAIL_BYTES && this.kept.length)) {
      this.kept.shift();
      this.bytes -= this.sizes.shift()!;
      this.complete = false;
    }
  }
}
