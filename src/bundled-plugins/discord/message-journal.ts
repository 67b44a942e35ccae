import type { ChannelInboundMessage } from '../../plugin-sdk';
import { PendingJournal } from '../chat-kit';
import type { AttachmentRef } from './discord-files';

/** One message taken from the Gateway and not yet fully answered, with the messages its reply has posted. */
export interface PendingMessage {
  /** The Discord channel (DM, guild channel or thread) the reply is written in. */
  channelId: string;
  /** The message as handed to the gateway, without its files. */
  inbound: ChannelInboundMessage;
  /** Its attachments, downloaded when the gateway asks (kept as Discord described them, so a restart can fetch them). */
  attachments?: AttachmentRef[];
  /** The ids of the reply's messages so far, in order. */
  replyIds: string[];
}

/**
 * The account's message state, kept in the plugin's state dir. Discord's Gateway delivers a message once: a new
 * session (after a restart) replays nothing, so a message the process had received and not answered when it died
 * would be lost. Each message to be handed to the gateway is written here first, and leaves `pending` once its reply
 * is delivered; the ids of the reply's messages are written the moment Discord returns them. At its next start the
 * account hands the pending messages in again and edits the messages their replies had posted instead of posting
 * again. The file is chat-kit's PendingJournal.
 */
export class MessageJournal {
  private constructor(private readonly journal: PendingJournal<PendingMessage>) {}

  static open(file: string): MessageJournal {
    return new MessageJournal(
      PendingJournal.open<PendingMessage>(file, { what: 'the Discord message journal', idOf: (p) => p.inbound.messageId }),
    );
  }

  /** Takes a message: false when it was taken before (a replay after a resume). */
  accept(channelId: string, inbound: ChannelInboundMessage, attachments: AttachmentRef[] = []): boolean {
    const id = inbound.messageId;
    if (this.journal.handled(id) || this.journal.find(id)) return false;
    this.journal.add({ channelId, inbound, replyIds: [], ...(attachments.length ? { attachments } : {}) });
    return true;
  }

  pending(): readonly PendingMessage[] {
    return this.journal.pending();
  }

  recordReply(messageId: string, replyIds: readonly string[]): void {
    this.journal.update(messageId, (entry) => {
      entry.replyIds = [...replyIds];
    });
  }

  /** The message is answered (or was nothing to answer): its id is remembered, the message forgotten. */
  done(messageId: string): void {
    this.journal.finish(messageId);
  }
}
