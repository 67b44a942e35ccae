/**
 * The fixed numbers and the exact wording of the A2A inbound channel. Peers match on these
 * strings, so they live in one place and tests import them instead of retyping them. See docs/a2a.md#limits-and-errors.
 */

/** Channel id in bindings, session keys and delivery contexts. */
export const A2A_CHANNEL_ID = 'a2a';
/** A2A has no accounts: every peer arrives on the default account. */
export const A2A_ACCOUNT_ID = 'default';

export const MAX_REQUEST_BYTES = 1024 * 1024;
export const MAX_RESPONSE_BYTES = 1024 * 1024;
export const MAX_BATCH_ENTRIES = 30;
/** Deepest nesting of one request's params: recursive code (JSON.stringify of a data part) must not overflow. */
export const MAX_PARAMS_DEPTH = 64;
export const RATE_LIMIT_WINDOW_MS = 60_000;
/** Extracted message text, in UTF-8 bytes. */
export const MAX_MESSAGE_BYTES = 65_536;
export const TRUNCATION_MARKER = `\n[message truncated at ${MAX_MESSAGE_BYTES} bytes]`;
export const CONTEXT_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/** A failed run's error as published in the task status. */
export const MAX_STATUS_TEXT_CHARS = 512;

/** Task retention (docs/a2a.md#task-store). */
export const TERMINAL_TASK_RETENTION_MS = 24 * 60 * 60 * 1000;
export const MAX_TERMINAL_TASKS_PER_PEER = 500;
export const IDLE_TASK_EXPIRY_MS = 60 * 60 * 1000;
/** How often retention and idle expiry run. */
export const TASK_SWEEP_INTERVAL_MS = 60_000;

export const A2A_MESSAGES = {
  slashCommand: 'A2A peers cannot execute slash commands. Send a task in plain text; only users can issue commands.',
  emptyReply: 'Agent completed without reply text',
  restarted: 'gateway restarted before the agent settled',
  expired: 'Task expired before the agent settled',
  batchTooLarge: `batch exceeds the ${MAX_BATCH_ENTRIES} request limit`,
  rateLimited: 'Peer is rate limited',
  internal: 'A2A request could not be processed',
  responseTooLarge: 'A2A response exceeds the 1 MiB limit',
  requestTooLarge: 'the request body exceeds the 1 MiB limit',
  unauthenticated: 'a valid peer bearer token is required',
  taskContinuation: 'omit taskId and reuse contextId',
  taskNotFound: 'Task not found',
  taskNotCancelable: 'Task cannot be canceled: it is already over',
  cancelUnsupported: 'this task is not running in this gateway process, so it cannot be stopped from here',
  canceledByPeer: 'Task canceled by the peer',
  canceledByOperator: 'Task canceled by the gateway operator',
  versionNotSupported: 'A2A version not supported',
  shuttingDown: 'Gateway is shutting down; retry later',
  noExposedAgent: 'No agent of this gateway is available to A2A peers',
  runNotStarted: 'The agent run could not be started',
  channelAdapterSend: 'A2A peers pull results with GetTask; use a2a_send for outbound messages',
} as const;
