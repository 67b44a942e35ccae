/**
 * Why an outbound call did not produce a usable response. Messages name the host at most — never the full
 * URL (its path or query may carry credentials), a header or a body.
 */
export type OutboundFailure = 'invalid_destination' | 'refused_address' | 'redirect' | 'timeout' | 'aborted' | 'too_large' | 'network';

/** Node error code set on refusals raised inside the connector, so they survive undici's error plumbing. */
export const REFUSED_ADDRESS_CODE = 'E_CLAWGATE_OUTBOUND_REFUSED';

export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
    /** HTTP status of the response, when there was one (e.g. the 3xx of a refused redirect). */
    readonly status?: number,
    /** The socket error code (ECONNREFUSED, ENOTFOUND, ...) of a `network` failure. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** Raised by the guarded lookup; carries a Node-style `code` because net/undici pass socket errors through. */
export class RefusedAddressError extends Error {
  readonly code = REFUSED_ADDRESS_CODE;

  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddressError';
  }
}

/** The RefusedAddressError somewhere in an error's `cause` chain, if any. */
export function findRefusal(err: unknown): RefusedAddressError | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof RefusedAddressError || e.code === REFUSED_ADDRESS_CODE) return e as RefusedAddressError;
  }
  return undefined;
}

/** The first Node-style error code (ECONNREFUSED, ENOTFOUND, ...) in the cause chain. */
export function socketErrorCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return e.code;
  }
  return undefined;
}
