/**
 * Every failure a caller can act on has exactly one of these codes. Domain code picks the code; each edge
 * (problem+json, JSON-RPC, the A2A HTTP+JSON binding, tool results) maps it with its own table, so no service
 * knows about HTTP statuses or JSON-RPC numbers.
 */
export enum ErrorCode {
  /** The request is malformed or names something in a way that cannot work. */
  BadRequest = 'BAD_REQUEST',
  /** A config document (a write, a validate call, a reload) does not pass validation. */
  ConfigInvalid = 'CONFIG_INVALID',
  /** No identity: no valid token or SSO assertion. */
  Unauthenticated = 'UNAUTHENTICATED',
  /** An identity, but not allowed to do this. */
  Forbidden = 'FORBIDDEN',
  NotFound = 'NOT_FOUND',
  /** The request conflicts with the current state (an existing label, a value set in an included file). */
  Conflict = 'CONFLICT',
  /** The caller's If-Match names a revision that is no longer current. */
  PreconditionFailed = 'PRECONDITION_FAILED',
  /** A write without If-Match. */
  PreconditionRequired = 'PRECONDITION_REQUIRED',
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  RateLimited = 'RATE_LIMITED',
  /** The gateway is shutting down or a part it needs is not ready. */
  Unavailable = 'UNAVAILABLE',
  /** Something the gateway called (a peer, a model provider) failed or answered wrongly. */
  UpstreamFailed = 'UPSTREAM_FAILED',
  /** Something the gateway called did not answer in time. */
  UpstreamTimeout = 'UPSTREAM_TIMEOUT',
  /** A bug or an unexpected failure; the detail stays in the log. */
  Internal = 'INTERNAL',

  // Protocol-level codes of the A2A edges (JSON-RPC and HTTP+JSON).
  /** A message parameter is missing or has the wrong shape. */
  InvalidParams = 'INVALID_PARAMS',
  /** The JSON-RPC method is not an A2A method at all. */
  MethodNotFound = 'METHOD_NOT_FOUND',
  /** A resource of the HTTP+JSON binding asked with an HTTP method it does not answer (DELETE on a task). */
  MethodNotAllowed = 'METHOD_NOT_ALLOWED',
  /** An A2A method this gateway knows but does not offer. */
  UnsupportedOperation = 'UNSUPPORTED_OPERATION',
  /** No task with that id (for this caller). */
  TaskNotFound = 'TASK_NOT_FOUND',
  /** The task is in a state it cannot be canceled from (it is already over). */
  TaskNotCancelable = 'TASK_NOT_CANCELABLE',
  /** A push-notification method while the card does not offer push notifications. */
  PushNotificationNotSupported = 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  /** The `A2A-Version` the caller asked for is not one this endpoint speaks. */
  VersionNotSupported = 'VERSION_NOT_SUPPORTED',
  /** A message part has a media type the operator does not accept (`channels.a2a.files.mediaTypes`). */
  ContentTypeNotSupported = 'CONTENT_TYPE_NOT_SUPPORTED',
}
