import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

/**
 * Why an outbound A2A send produced no task. `disabled`/`unknown_peer`/`no_url`/`unusable` are config
 * problems found before any I/O; the rest happened talking to the peer.
 */
export type A2aOutboundReason =
  | 'disabled'
  | 'unknown_peer'
  | 'no_url'
  | 'unusable'
  | 'refused'
  | 'timeout'
  | 'aborted'
  | 'unreachable'
  | 'http'
  | 'auth'
  | 'protocol'
  | 'rpc';

/** Config problems found before anything was sent. */
const BEFORE_IO: ReadonlySet<A2aOutboundReason> = new Set(['disabled', 'unknown_peer', 'no_url', 'unusable']);

/**
 * The error code of each reason: a missing peer is not found, other config problems conflict with the
 * request, a peer that did not answer in time is an upstream timeout, anything else the peer did is an
 * upstream failure. The edges (admin problem+json, tool results) map the code like any other.
 */
function codeOf(reason: A2aOutboundReason): ErrorCode {
  if (reason === 'unknown_peer') return ErrorCode.NotFound;
  if (BEFORE_IO.has(reason)) return ErrorCode.Conflict;
  if (reason === 'timeout') return ErrorCode.UpstreamTimeout;
  return ErrorCode.UpstreamFailed;
}

export class A2aOutboundError extends AppError {
  constructor(
    readonly reason: A2aOutboundReason,
    message: string,
    /** The JSON-RPC error code when the peer answered with one. */
    readonly rpcCode?: number,
  ) {
    super(codeOf(reason), message);
    this.name = 'A2aOutboundError';
  }

  /** Found in the config before anything was sent. */
  get beforeIo(): boolean {
    return BEFORE_IO.has(this.reason);
  }
}
