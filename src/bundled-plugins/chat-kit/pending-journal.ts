import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Writes a channel journal so that a crash leaves the old state or the new, never half of one: a temporary file,
 * fsync'd, renamed over the old one, and the directory fsync'd. Synchronous on purpose: between a platform's answer
 * and the record of it there is no await for a `kill -9` to fall into.
 */
export function writeJournalDurably(file: string, state: unknown): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temporary, 'w', 0o600);
  try {
    fs.writeSync(fd, JSON.stringify(state));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}

interface JournalFile<E> {
  version: 1;
  pending: E[];
  /** The ids of the most recent entries handled (and any other keys they asked to be remembered by), oldest first. */
  done: string[];
}

export interface PendingJournalOptions<E> {
  /** How the journal is named in an error, e.g. "the Discord message journal". */
  what: string;
  /** The id an entry is found and remembered by (the platform's message or event id). */
  idOf: (entry: E) => string;
  /** How many handled ids are remembered [2000]: a platform redelivers or replays within minutes, a few times at most. */
  remembered?: number;
}

/**
 * What a chat account has taken from its platform and not yet fully answered, kept in the plugin's state dir. An
 * entry is added before the platform is told it arrived, updated as its reply posts messages, and finished once the
 * reply is delivered, when its id joins the remembered ones: a redelivery or a replay is recognised, and a gateway
 * killed in between answers the pending entries at its next start. The platform's own shape of an entry is the
 * plugin's; this keeps the file.
 */
export class PendingJournal<E> {
  private constructor(
    private readonly file: string,
    private state: JournalFile<E>,
    private readonly options: PendingJournalOptions<E>,
  ) {}

  static open<E>(file: string, options: PendingJournalOptions<E>): PendingJournal<E> {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    let state: JournalFile<E> = { version: 1, pending: [], done: [] };
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as JournalFile<E>;
      if (parsed.version !== 1 || !Array.isArray(parsed.pending) || !Array.isArray(parsed.done))
        throw new Error('not a journal of version 1');
      state = parsed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new Error(`${options.what} ${file} cannot be read (${(error as Error).message}); move it away to start afresh`);
      }
    }
    return new PendingJournal(file, state, options);
  }

  /** True when `key` was remembered as handled. */
  handled(key: string): boolean {
    return this.state.done.includes(key);
  }

  pending(): readonly E[] {
    return this.state.pending;
  }

  find(id: string): E | undefined {
    return this.state.pending.find((entry) => this.options.idOf(entry) === id);
  }

  add(entry: E): void {
    this.state.pending.push(entry);
    this.save();
  }

  /** Changes a pending entry in place and writes it; nothing when the entry is no longer pending. */
  update(id: string, change: (entry: E) => void): void {
    const entry = this.find(id);
    if (!entry) return;
    change(entry);
    this.save();
  }

  /** The entry is answered (or was nothing to answer): it leaves `pending`; its id, and `alsoRemember`'s keys, are remembered. */
  finish(id: string, alsoRemember: (entry: E) => readonly string[] = () => []): void {
    const entry = this.find(id);
    this.state.pending = this.state.pending.filter((p) => this.options.idOf(p) !== id);
    this.state.done.push(id, ...(entry ? alsoRemember(entry) : []));
    const limit = this.options.remembered ?? 2000;
    if (this.state.done.length > limit) this.state.done.splice(0, this.state.done.length - limit);
    this.save();
  }

  private save(): void {
    writeJournalDurably(this.file, this.state);
  }
}
