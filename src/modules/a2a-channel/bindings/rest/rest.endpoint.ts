import { Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../../../../common/errors/app-error';
import { ErrorCode } from '../../../../common/errors/error-code';
import { maskSecrets } from '../../../../common/secrets/secret-mask';
import type { NormalizedConfig } from '../../../config';
import { AuthRefusals } from '../../../metrics';
import { A2A_MESSAGES, MAX_RESPONSE_BYTES } from '../../protocol/limits-and-messages';
import { A2aOperations } from '../../operations/operations.service';
import { readA2aRequest } from '../../operations/a2a-request';
import { renderResult } from '../../operations/a2a-result';
import { readRequestVersion, REST_A2A_VERSIONS, requestedA2aVersion } from '../../protocol/versions';
import { passFrontDoor } from '../front-door';
import { cardOrigin } from '../../card/request-origin';
import { restErrorOf } from './rest-errors';
import { restCallParams } from './rest-params';
import { matchRestRoute } from './rest-routes';
import { A2A_JSON_CONTENT_TYPE } from '../../protocol/media-types';
import { answerWithStream } from '../sse';
import { lastEventIdOf } from '../last-event-id';

/** Where the binding's paths start: the interface URL the card advertises (the JSON-RPC endpoint's, reused). */
export const REST_BASE_PATH = '/a2a/v1';
/** How much of a request path an error message repeats. */
const MAX_ECHOED_PATH = 128;

/**
 * The HTTP+JSON binding of A2A 1.0 (docs/a2a.md#httpjson-rest): `POST /a2a/v1/message:send`, `GET /a2a/v1/tasks/{id}`,
 * `GET /a2a/v1/tasks`, `POST /a2a/v1/tasks/{id}:cancel`, `GET /a2a/v1/extendedAgentCard` and the routes of the
 * operations this gateway does not offer. 1.0 only: a request declaring another `A2A-Version` (0.3 included) is refused.
 * It only translates: a route becomes the A2A method and params a JSON-RPC caller would send, read once into an A2A
 * request (readA2aRequest: version, method, validation), A2aOperations makes the call (the task service), and the
 * outcome becomes a status and a JSON body
 * (errors as `google.rpc.Status` with their ErrorInfo). Order of checks, as on the JSON-RPC endpoint: route (404, 405),
 * the front door both bindings share (front-door.ts: bearer token 401, before a byte of the body is read; body size 413,
 * the JSON-RPC limit: 1 MiB plus room for files), rate limit (429), JSON (400), then the call.
 */
@Injectable()
export class A2aRestEndpoint {
  private readonly logger = new Logger('a2a');

  constructor(
    private readonly operations: A2aOperations,
    private readonly refusals: AuthRefusals,
  ) {}

  /** `path`: below REST_BASE_PATH (`/tasks/abc:cancel`); `config`: the request's snapshot, its channel enabled. Never rejects. */
  async serve(req: IncomingMessage, res: ServerResponse, path: string, config: NormalizedConfig): Promise<void> {
    try {
      await this.answer(req, res, path, config);
    } catch (err) {
      this.logger.error(`A2A HTTP+JSON request failed: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.headersSent) sendError(res, new AppError(ErrorCode.Internal, A2A_MESSAGES.internal));
      else res.destroy();
    }
  }

  private async answer(req: IncomingMessage, res: ServerResponse, path: string, config: NormalizedConfig): Promise<void> {
    const settings = config.channels.a2a;
    const method = req.method ?? '';
    const match = matchRestRoute(method, path);
    const shown = `${REST_BASE_PATH}${path}`.slice(0, MAX_ECHOED_PATH);
    if (match.kind === 'not-found') return sendError(res, new AppError(ErrorCode.NotFound, `No A2A operation at ${shown}`));
    if (match.kind === 'method-not-allowed') {
      res.setHeader('Allow', match.allow.join(', '));
      return sendError(
        res,
        new AppError(ErrorCode.MethodNotAllowed, `${shown} does not answer ${method}; it answers ${match.allow.join(', ')}`),
      );
    }
    if (match.kind === 'bad-encoding') return sendError(res, new AppError(ErrorCode.BadRequest, 'The path is not valid percent-encoding'));
    const { route, vars } = match;

    const admitted = await passFrontDoor(req, res, settings, {
      readBody: route.body !== undefined,
      refuse: sendError,
      refusals: this.refusals,
    });
    if (!admitted) return;
    const { peer, body: bytes } = admitted;
    // One slot per request, taken before the body is parsed: garbage is not free either.
    if (!(await this.operations.admit(peer))) return sendError(res, new AppError(ErrorCode.RateLimited, A2A_MESSAGES.rateLimited));

    let parsed: unknown;
    if (bytes?.length) {
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        return sendError(res, new AppError(ErrorCode.BadRequest, 'The request body is not valid JSON'));
      }
    }
    const url = req.url ?? '';
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1).split('#')[0] : '';
    const caller = { peer, origin: () => cardOrigin(config, req) };
    // Read once, in 1.0 (the only version this binding serves, and its routes' method names are 1.0 names).
    const a2a = readA2aRequest({
      method: route.a2aMethod,
      version: readRequestVersion(requestedA2aVersion(req), REST_A2A_VERSIONS),
      params: () => restCallParams(route, vars, query, parsed),
      canStream: true,
      files: settings.files,
    });
    const outcome = await this.operations.call(caller, a2a, { wait: true, lastEventId: lastEventIdOf(req), binding: 'http-json' });
    if (outcome.ok && 'stream' in outcome) {
      if (res.destroyed || res.headersSent) return outcome.stream.stream.close();
      // Events carry the StreamResponse as it is; an error that ends the stream is an `error` event with the binding's body.
      return answerWithStream(res, outcome.stream, {
        item: (json) => json,
        error: (error) => ({ event: 'error', data: JSON.stringify(restErrorOf(error).body) }),
      });
    }
    if (res.destroyed || res.headersSent) return;
    if (!outcome.ok) return sendError(res, outcome.error);
    const text = maskSecrets(JSON.stringify(renderResult(outcome.result, a2a.codec)));
    if (Buffer.byteLength(text, 'utf8') > MAX_RESPONSE_BYTES) {
      return sendError(res, new AppError(ErrorCode.Internal, A2A_MESSAGES.responseTooLarge));
    }
    send(res, 200, text);
  }
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': A2A_JSON_CONTENT_TYPE, 'Content-Length': String(Buffer.byteLength(text, 'utf8')) });
  res.end(text);
}

/** Every error of the binding, HTTP-level ones included, as its status and `google.rpc.Status` body; headers set before stay. */
function sendError(res: ServerResponse, err: AppError): void {
  const { http, body } = restErrorOf(err);
  // The gateway-wide safety net (see SecretShield): a configured secret in a message never leaves verbatim.
  send(res, http, maskSecrets(JSON.stringify(body)));
}
