import { PendingJournal } from '../chat-kit';

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

/**
 * The account's event state, kept in the plugin's state dir. Slack delivers an event at least once: an envelope
 * not acknowledged in time, or whose acknowledgement was lost with a connection, comes again with `retry_attempt`;
 * each event is recognised by its `event_id`, so one already taken (pending or handled) is acknowledged and
 * dropped, across reconnects and restarts alike. An event is written here before it is acknowledged, and leaves
 * `pending` once its reply is delivered: a gateway killed in between answers it at its next start, editing the
 * messages already posted (their `ts` are written the moment Slack returns them) instead of posting again.
 * The file is chat-kit's PendingJournal.
 */
export class EventJournal {
  private constructor(private readonly journal: PendingJournal<PendingEvent>) {}

  static open(file: string): EventJournal {
    return new EventJournal(PendingJournal.open<PendingEvent>(file, { what: 'the Slack event journal', idOf: (p) => p.eventId }));
  }

  /** True when the event, or another event about its message, was taken before (it is pending or was handled). */
  seen(eventId: string, messageKey: string): boolean {
    return (
      this.journal.handled(eventId) ||
      this.journal.handled(messageKey) ||
      this.journal.pending().some((p) => p.eventId === eventId || p.messageKey === messageKey)
    );
  }

  /** Takes an event: kept before Slack is told it arrived. False when it was taken before (a redelivery). */
  accept(entry: Omit<PendingEvent, 'replyTs'>): boolean {
    if (this.seen(entry.eventId, entry.messageKey)) return false;
    this.journal.add({ ...entry, replyTs: [] });
    return true;
  }

  pending(): readonly PendingEvent[] {
    return this.journal.pending();
  }

  recordReply(eventId: string, replyTs: readonly string[]): void {
    this.journal.update(eventId, (entry) => {
      entry.replyTs = [...replyTs];
    });
  }

  /** The event is answered (or was nothing to answer): its id and its message's key are remembered, the event forgotten. */
  done(eventId: string): void {
    this.journal.finish(eventId, (entry) => [entry.messageKey]);
  }
}
