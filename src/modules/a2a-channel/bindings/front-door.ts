import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { bearerToken } from '../../../common/http/bearer-token';
import { readLimitedBody } from '../../../common/http/limited-body';
import type { A2aChannelSettings } from '../../config';
import type { AuthRefusals } from '../../metrics';
import { A2A_MESSAGES, requestBodyLimit, requestTooLargeMessage } from '../protocol/limits-and-messages';
import { authenticatePeer, PEER_AUTH_CHALLENGE } from './peer-auth';

/** Who came in, and the body when the binding asked for one. */
export interface Admitted {
  peer: string;
  /** Read under the request body limit; absent when the binding reads no body for this request. */
  body?: Buffer;
}

export interface FrontDoorOptions {
  /** Read the request body (a JSON-RPC call, an HTTP+JSON route that takes one); otherwise not a byte of it is read. */
  readBody: boolean;
  /** Writes a refusal (401, 413) in the binding's own error form; the headers set here before it stay. */
  refuse: (res: ServerResponse, error: AppError) => void;
  /** Where a refused token is counted and (rate-limited) logged, naming the source address, never the token. */
  refusals: Pick<AuthRefusals, 'refused'>;
}

/**
 * The one way into both A2A bindings (docs/a2a.md#limits-and-errors): the bearer token (401 with the challenge, before a
 * byte of the body is read), then the body under its limit (1 MiB plus room for the operator's file limit; over it 413,
 * and the connection closes). Resolves with the peer and body, or undefined once the request is answered (refused) or
 * gone (the client aborted its body). `settings`: the request's snapshot of `channels.a2a`, read per request so that a
 * removed peer's token fails on its next request and a rotated one works at once.
 */
export async function passFrontDoor(
  req: IncomingMessage,
  res: ServerResponse,
  settings: A2aChannelSettings,
  options: FrontDoorOptions,
): Promise<Admitted | undefined> {
  const peer = authenticatePeer(settings.peers, bearerToken(req.headers.authorization, 'rest-of-value'));
  if (!peer) {
    options.refusals.refused('a2a', req);
    res.setHeader('WWW-Authenticate', PEER_AUTH_CHALLENGE);
    options.refuse(res, new AppError(ErrorCode.Unauthenticated, A2A_MESSAGES.unauthenticated));
    return undefined;
  }
  if (!options.readBody) return { peer };
  const limit = requestBodyLimit(settings.files.maxBytes);
  const body = await readLimitedBody(req, limit);
  if (body.kind === 'aborted') return undefined;
  if (body.kind === 'too-large') {
    // Closing is the only way to stop a client that keeps sending; the rest of its body is never read.
    res.setHeader('Connection', 'close');
    options.refuse(res, new AppError(ErrorCode.PayloadTooLarge, requestTooLargeMessage(limit)));
    return undefined;
  }
  return { peer, body: body.bytes };
}
