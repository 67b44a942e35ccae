import * as fs from 'node:fs';
import * as path from 'node:path';

/** One event taken from Slack (acknowledged) and not yet fully answered, with the messages its reply has posted. */
export interface PendingEvent {
  eventId: string;
  /**
   * The message it is about (`<channel>:<ts>`): Slack sends a mention twice, as `message` and as `app_mention`,
   * each with its own event id; the second is recognised by this.
   */
  messageKey: string;
  /** The event callback's `event` object, as Slack sent it. */
  event: Record<string, unknown>;
  teamId?: string;
  /** The `ts` of the reply's messages so far, in order. */
  replyTs: string[];
}

interface JournalFile {
  version: 1;
  pending: PendingEvent[];
  /** The ids of the most recent events handled, oldest first (at most `REMEMBERED`). */
  done: string[];
}

/** How many handled event ids and message keys are remembered: Slack redelivers an event within minutes, a few times at most. */
const REMEMBERED = 2000;

/**
 * The account's event state, kept in the plugin's state dir. Slack delivers an event at least once: an envelope
 * not acknowledged in time, or whose acknowledgement was lost with a connection, comes again with `retry_attempt`;
 * each event is recognised by its `event_id`, so one already taken (pending or handled) is acknowledged and
 * dropped, across reconnects and restarts alike. An event is written here before it is acknowledged, and leaves
 * `pending` once its reply is delivered: a gateway killed in between answers it at its next start, editing the
 * messages already posted (their `ts` are written the moment Slack returns them) instead of posting again.
 * Each change is a whole-file write to a temporary file renamed over the old one.
 */
export class EventJournal {
  private constructor(
    private readonly file: string,
    private state: JournalFile,
  ) {}

  static open(file: string): EventJournal {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    let state: JournalFile = { version: 1, pending: [], done: [] };
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as JournalFile;
      if (parsed.version !== 1 || !Array.isArray(parsed.pending) || !Array.isArray(parsed.done))
        throw new Error('not a journal of version 1');
      state = parsed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new Error(`the Slack event journal ${file} cannot be read (${(error as Error).message}); move it away to start afresh`);
      }
    }
    return new EventJournal(file, state);
  }

  /** True when the event, or another event about its message, was taken before (it is pending or was handled). */
  seen(eventId: string, messageKey: string): boolean {
    return (
      this.state.done.includes(eventId) ||
      this.state.done.includes(messageKey) ||
      this.state.pending.some((p) => p.eventId === eventId || p.messageKey === messageKey)
    );
  }

  /** Takes an event: kept before Slack is told it arrived. False when it was taken before (a redelivery). */
  accept(entry: Omit<PendingEvent, 'replyTs'>): boolean {
    if (this.seen(entry.eventId, entry.messageKey)) return false;
    this.state.pending.push({ ...entry, replyTs: [] });
    this.save();
    return true;
  }

  pending(): readonly PendingEvent[] {
    return this.state.pending;
  }

  recordReply(eventId: string, replyTs: readonly string[]): void {
    const entry = this.state.pending.find((p) => p.eventId === eventId);
    if (!entry) return;
    entry.replyTs = [...replyTs];
    this.save();
  }

  /** The event is answered (or was nothing to answer): its id is remembered, the event forgotten. */
  done(eventId: string): void {
    const entry = this.state.pending.find((p) => p.eventId === eventId);
    this.state.pending = this.state.pending.filter((p) => p.eventId !== eventId);
    this.state.done.push(eventId, ...(entry ? [entry.messageKey] : []));
    if (this.state.done.length > REMEMBERED) this.state.done.splice(0, this.state.done.length - REMEMBERED);
    this.save();
  }

  private save(): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(this.state), { mode: 0o600 });
    fs.renameSync(temporary, this.file);
  }
}
