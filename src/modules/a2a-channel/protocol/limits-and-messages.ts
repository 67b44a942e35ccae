/**
 * The fixed numbers and the exact wording of the A2A inbound channel. Peers match on these
 * strings, so they live in one place and tests import them instead of retyping them. See docs/a2a.md#limits-and-errors.
 */

/** Channel id in bindings, session keys and delivery contexts. */
export const A2A_CHANNEL_ID = 'a2a';
/** A2A has no accounts: every peer arrives on the default account. */
export const A2A_ACCOUNT_ID = 'default';

export const MAX_REQUEST_BYTES = 1024 * 1024;
/**
 * The body limit of one request: the 1 MiB every request has, plus room for `channels.a2a.files.maxBytes` of
 * files in base64 (4 characters per 3 bytes), so the operator's file limit is the one a peer meets.
 */
export function requestBodyLimit(fileMaxBytes: number): number {
  return MAX_REQUEST_BYTES + 4 * Math.ceil(fileMaxBytes / 3);
}
/** The words of the 413 both bindings answer a body over requestBodyLimit with. */
export function requestTooLargeMessage(limit: number): string {
  return `the request body exceeds the limit of ${limit} bytes (1 MiB, plus channels.a2a.files.maxBytes in base64)`;
}
export const MAX_RESPONSE_BYTES = 1024 * 1024;
export const MAX_BATCH_ENTRIES = 30;
/** How far (bytes queued, unsent) a streaming client may fall behind before its stream is closed with an error. */
export const MAX_STREAM_BACKLOG_BYTES = 1024 * 1024;
/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** Deepest nesting of one request's params: recursive code (JSON.stringify of a data part) must not overflow. */
export const MAX_PARAMS_DEPTH = 64;
export const RATE_LIMIT_WINDOW_MS = 60_000;
/** Extracted message text, in UTF-8 bytes. */
export const MAX_MESSAGE_BYTES = 65_536;
export const TRUNCATION_MARKER = `\n[message truncated at ${MAX_MESSAGE_BYTES} bytes]`;
/** File parts (docs/a2a.md#files): the longest filename and url a part may carry. */
export const MAX_FILENAME_CHARS = 255;
export const MAX_FILE_URL_CHARS = 2048;
/** File parts (raw and url) one message may carry: each becomes a labelled block of the agent's text. */
export const MAX_FILE_PARTS = 20;
/** UTF-8 bytes of text-like files shown inline, all attachments of a message together; the rest is stored. */
export const MAX_INLINE_ATTACHMENT_BYTES = 65_536;
export const CONTEXT_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** A failed run's error as published in the task status. */
export const MAX_STATUS_TEXT_CHARS = 512;

/** Task retention (docs/a2a.md#task-store); how many finished tasks a peer keeps is `channels.a2a.keptTasksPerPeer`. */
export const TERMINAL_TASK_RETENTION_MS = 24 * 60 * 60 * 1000;
export const IDLE_TASK_EXPIRY_MS = 60 * 60 * 1000;
/** How often retention and idle expiry run. */
export const TASK_SWEEP_INTERVAL_MS = 60_000;
/** How long a CancelTask for a task run by another replica waits for that replica to end it. */
export const REMOTE_CANCEL_TIMEOUT_MS = 10_000;
/** How long an answer to INPUT_REQUIRED for a task run by another replica waits for that replica to take it. */
export const REMOTE_INPUT_TIMEOUT_MS = 10_000;

export const A2A_MESSAGES = {
  slashCommand: 'A2A peers cannot execute slash commands. Send a task in plain text; only users can issue commands.',
  emptyReply: 'Agent completed without reply text',
  restarted: 'gateway restarted before the agent settled',
  restartedWaitingForInput:
    'gateway restarted while the task waited for input; its agent run cannot be resumed. Send the answer as a new message (without taskId) in the same contextId',
  expired: 'Task expired before the agent settled',
  replicaStopped: 'the gateway replica running this task stopped',
  batchTooLarge: `batch exceeds the ${MAX_BATCH_ENTRIES} request limit`,
  rateLimited: 'Peer is rate limited',
  internal: 'A2A request could not be processed',
  responseTooLarge: 'A2A response exceeds the 1 MiB limit',
  unauthenticated: 'a valid peer bearer token is required',
  taskOver: 'Task is already over: omit taskId and reuse contextId',
  notWaitingForInput: 'Task is not waiting for input (TASK_STATE_INPUT_REQUIRED): omit taskId and reuse contextId',
  inputOwnerGone:
    'Task cannot take input: no gateway replica answers for its run (it may have stopped; the task fails shortly). Send the answer as a new message (without taskId) in the same contextId',
  inputNoAnswer:
    'Task did not confirm the answer in time: the gateway replica running it did not reply; GetTask shows whether the answer arrived before sending it again',
  contextMismatch: "message.contextId is not the task's contextId",
  taskNotFound: 'Task not found',
  subscribeToFinished: 'Task is already over: GetTask reads its outcome (a stream that was cut resumes with Last-Event-ID)',
  streamNotBatched: 'streaming methods answer with an event stream and cannot be part of a batch or a notification',
  streamFellBehind: 'the stream fell behind (the client reads too slowly) and was closed; resume with Last-Event-ID',
  taskNotCancelable: 'Task cannot be canceled: it is already over',
  cancelUnsupported: 'this task is not running in this gateway process, so it cannot be stopped from here',
  cancelOwnerGone: 'Task cannot be canceled: no gateway replica answers for its run (it may have stopped; the task fails when it expires)',
  cancelNoAnswer: 'Task cannot be canceled now: the gateway replica running it did not confirm the cancel in time; it may still be running',
  canceledByPeer: 'Task canceled by the peer',
  canceledByOperator: 'Task canceled by the gateway operator',
  versionNotSupported: 'A2A version not supported',
  shuttingDown: 'Gateway is shutting down; retry later',
  noExposedAgent: 'No agent of this gateway is available to A2A peers',
  runNotStarted: 'The agent run could not be started',
} as const;
