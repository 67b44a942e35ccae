/**
 * What the bundled chat-channel plugins share: cutting a long reply at a platform's length limit on paragraph and
 * code-block boundaries, pacing each chat's writes to the platform's rate, streaming a growing reply into a chat by
 * edits (StreamedReply), and keeping the accounts' clients in step with the config (AccountSet: one
 * reconfiguration at a time), and the journal of what an account took from its platform and has not answered yet
 * (PendingJournal, written durably).
 */
export { splitMarkdown } from './split-text';
export { ChatPacer, sleep } from './chat-pacer';
export { AccountSet, type AccountSetHooks, type AccountSettings } from './account-set';
export { reportAccountFailure } from './account-failure';
export { StreamedReply, type ReplyPiece, type ReplyTarget } from './streamed-reply';
export { PendingJournal, writeJournalDurably, type PendingJournalOptions } from './pending-journal';
