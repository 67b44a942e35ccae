import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChannelInboundMessage } from '../../plugin-sdk';

/** One message taken from the Gateway and not yet fully answered, with the messages its reply has posted. */
export interface PendingMessage {
  /** The Discord channel (DM, guild channel or thread) the reply is written in. */
  channelId: string;
  /** The message as handed to the gateway. */
  inbound: ChannelInboundMessage;
  /** The ids of the reply's messages so far, in order. */
  replyIds: string[];
}

interface JournalFile {
  version: 1;
  pending: PendingMessage[];
  /** The ids of the most recent messages handled, oldest first (at most `REMEMBERED`). */
  done: string[];
}

/** How many handled message ids are remembered (a resumed session replays only what it missed: a few at most). */
const REMEMBERED = 2000;

/**
 * The account's message state, kept in the plugin's state dir. Discord's Gateway delivers a message once: a new
 * session (after a restart) replays nothing, so a message the process had received and not answered when it died
 * would be lost. Each message to be handed to the gateway is written here first, and leaves `pending` once its reply
 * is delivered; the ids of the reply's messages are written the moment Discord returns them. At its next start the
 * account hands the pending messages in again and edits the messages their replies had posted instead of posting
 * again. Each change is a whole-file write to a temporary file renamed over the old one; writes are synchronous, so
 * no await separates an event from its record.
 */
export class MessageJournal {
  private constructor(
    private readonly file: string,
    private state: JournalFile,
  ) {}

  static open(file: string): MessageJournal {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    let state: JournalFile = { version: 1, pending: [], done: [] };
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as JournalFile;
      if (parsed.version !== 1 || !Array.isArray(parsed.pending) || !Array.isArray(parsed.done))
        throw new Error('not a journal of version 1');
      state = parsed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new Error(`the Discord message journal ${file} cannot be read (${(error as Error).message}); move it away to start afresh`);
      }
    }
    return new MessageJournal(file, state);
  }

  /** Takes a message: false when it was taken before (a replay after a resume). */
  accept(channelId: string, inbound: ChannelInboundMessage): boolean {
    const id = inbound.messageId;
    if (this.state.done.includes(id) || this.state.pending.some((p) => p.inbound.messageId === id)) return false;
    this.state.pending.push({ channelId, inbound, replyIds: [] });
    this.save();
    return true;
  }

  pending(): readonly PendingMessage[] {
    return this.state.pending;
  }

  recordReply(messageId: string, replyIds: readonly string[]): void {
    const entry = this.state.pending.find((p) => p.inbound.messageId === messageId);
    if (!entry) return;
    entry.replyIds = [...replyIds];
    this.save();
  }

  /** The message is answered (or was nothing to answer): its id is remembered, the message forgotten. */
  done(messageId: string): void {
    this.state.pending = this.state.pending.filter((p) => p.inbound.messageId !== messageId);
    this.state.done.push(messageId);
    if (this.state.done.length > REMEMBERED) this.state.done.splice(0, this.state.done.length - REMEMBERED);
    this.save();
  }

  private save(): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(this.state), { mode: 0o600 });
    fs.renameSync(temporary, this.file);
  }
}
