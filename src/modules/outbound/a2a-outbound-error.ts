import { DomainError } from '../../common/errors/domain-error';

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

export class A2aOutboundError extends Error {
  constructor(
    readonly reason: A2aOutboundReason,
    message: string,
    /** The JSON-RPC error code when the peer answered with one. */
    readonly rpcCode?: number,
  ) {
    super(message);
    this.name = 'A2aOutboundError';
  }

  /** Found in the config before anything was sent. */
  get beforeIo(): boolean {
    return this.reason === 'disabled' || this.reason === 'unknown_peer' || this.reason === 'no_url' || this.reason === 'unusable';
  }

  /** The admin API's problem for this failure: config problems are 404/409, peer problems 502/504. */
  toDomainError(): DomainError {
    if (this.reason === 'unknown_peer') return new DomainError(404, 'Not found', this.message);
    if (this.beforeIo) return new DomainError(409, 'Conflict', this.message);
    if (this.reason === 'timeout') return new DomainError(504, 'Gateway Timeout', this.message);
    return new DomainError(502, 'Bad Gateway', this.message);
  }
}
