import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Update } from 'grammy/types';
import { writeJournalDurably } from '../chat-kit';

/** One update taken from Telegram and not yet fully answered, with the messages its reply has sent so far. */
export interface PendingUpdate {
  update: Update;
  replyMessageIds: number[];
  /** A send of the reply had started and its answer was not recorded: the message may exist (see TelegramReply). */
  sending?: boolean;
}

interface JournalFile {
  version: 1;
  /** The bot these updates are of: another token (another bot) starts from Telegram's queue afresh. */
  botId?: number;
  /** The next `getUpdates` offset: every update below it is either pending here or answered. */
  offset: number;
  pending: PendingUpdate[];
  /** Per chat, the id of the last message the bot is known to have sent there. */
  lastSent?: Record<string, number>;
  /** The ids of the updates answered last (at most ANSWERED_KEPT): a webhook redelivery of one is recognised by them. */
  answered?: number[];
}

/**
 * How many answered update ids are kept. Telegram posts an update again only when the answer to its post was lost,
 * right after it; the webhook's one connection (max_connections 1) delivers in order, so far fewer would do.
 */
const ANSWERED_KEPT = 1000;

/**
 * The account's update state, kept in the plugin's state dir so that a restart or a `kill -9` neither
 * replays nor skips an update. Updates are written here (with the offset past them) before Telegram is told,
 * through the next `getUpdates` offset or a webhook post's 200, that they were received; each leaves the journal once its reply is
 * delivered, and the ids of the messages the reply sent are written the moment Telegram returns them, so a
 * restarted gateway edits those messages instead of sending the reply again. Every change is a whole-file write
 * to a temporary file, fsync'd, then renamed over the old one (and the directory fsync'd): a crash leaves the old
 * state or the new, never half of one. Writes are synchronous: between Telegram's answer and the record of it
 * there is no await for a kill to fall into.
 */
export class UpdateJournal {
  private state: JournalFile;

  private constructor(
    private readonly file: string,
    state: JournalFile,
  ) {
    this.state = state;
  }

  static open(file: string): UpdateJournal {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    let state: JournalFile = { version: 1, offset: 0, pending: [] };
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as JournalFile;
      if (parsed.version !== 1 || typeof parsed.offset !== 'number' || !Array.isArray(parsed.pending)) {
        throw new Error('not a journal of version 1');
      }
      state = parsed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new Error(`the Telegram update journal ${file} cannot be read (${(error as Error).message}); move it away to start afresh`);
      }
    }
    return new UpdateJournal(file, state);
  }

  get offset(): number {
    return this.state.offset;
  }

  /** The journal is of this bot; one of another bot (the token changed) is dropped. */
  bindBot(botId: number): void {
    if (this.state.botId === botId) return;
    this.state = { version: 1, botId, offset: 0, pending: [] };
    this.save();
  }

  /** Updates `getUpdates` returned: kept, and the offset moved past them, before they are acted on. */
  accept(updates: readonly Update[]): PendingUpdate[] {
    const known = new Set(this.state.pending.map((p) => p.update.update_id));
    const fresh = updates.filter((u) => u.update_id >= this.state.offset && !known.has(u.update_id));
    if (!updates.length) return [];
    const added = fresh.map((update) => ({ update, replyMessageIds: [] }));
    this.state.pending.push(...added);
    this.state.offset = Math.max(this.state.offset, ...updates.map((u) => u.update_id + 1));
    this.save();
    return added;
  }

  /**
   * An update a webhook post brought: kept (durably, before the post is answered) unless it is pending or was answered
   * already — a redelivery. Not compared with the offset: after a week without updates Telegram numbers them afresh,
   * possibly lower. Returns whether it is new.
   */
  receive(update: Update): boolean {
    const id = update.update_id;
    if (this.state.pending.some((p) => p.update.update_id === id) || this.state.answered?.includes(id)) return false;
    this.state.pending.push({ update, replyMessageIds: [] });
    this.state.offset = Math.max(this.state.offset, id + 1);
    this.save();
    return true;
  }

  pending(): readonly PendingUpdate[] {
    return this.state.pending;
  }

  /** A message of the reply to `updateId` is about to be sent (written before the request leaves). */
  markSending(updateId: number): void {
    const entry = this.state.pending.find((p) => p.update.update_id === updateId);
    if (!entry || entry.sending) return;
    entry.sending = true;
    this.save();
  }

  /** The messages the reply to `updateId` has sent so far (the whole list, in order), in `chatId`. */
  recordReply(updateId: number, chatId: number, messageIds: readonly number[]): void {
    const entry = this.state.pending.find((p) => p.update.update_id === updateId);
    if (!entry) return;
    entry.replyMessageIds = [...messageIds];
    delete entry.sending;
    const lastSent = (this.state.lastSent ??= {});
    lastSent[chatId] = Math.max(lastSent[chatId] ?? 0, ...messageIds);
    this.save();
  }

  /** The id of the last message the bot is known to have sent in `chatId` (0 when none). */
  lastSentIn(chatId: number): number {
    return this.state.lastSent?.[chatId] ?? 0;
  }

  /** The update is answered (or was nothing to answer): it leaves the journal. */
  done(updateId: number): void {
    const before = this.state.pending.length;
    this.state.pending = this.state.pending.filter((p) => p.update.update_id !== updateId);
    if (this.state.pending.length === before) return;
    this.state.answered = [...(this.state.answered ?? []), updateId].slice(-ANSWERED_KEPT);
    this.save();
  }

  private save(): void {
    writeJournalDurably(this.file, this.state);
  }
}
