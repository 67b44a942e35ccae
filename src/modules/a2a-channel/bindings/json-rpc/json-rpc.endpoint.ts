import { Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppError } from '../../../../common/errors/app-error';
import { HTTP_STATUS_BY_CODE, problem, writeProblem } from '../../../../common/errors/problem-details';
import { maskSecrets } from '../../../../common/secrets/secret-mask';
import { ConfigStore } from '../../../config';
import { AuthRefusals } from '../../../metrics';
import { a2aSubpath } from '../mount-path';
import { A2aRestEndpoint } from '../rest/rest.endpoint';
import { A2aRpcService } from './json-rpc.service';
import { passFrontDoor } from '../front-door';
import { cardOrigin } from '../../card/request-origin';
import { readRequestVersion, requestedA2aVersion } from '../../protocol/versions';
import { answerWithStream } from '../sse';
import { lastEventIdOf } from '../last-event-id';

/** Paths of the JSON-RPC endpoint relative to the `/a2a` mount. */
const RPC_PATHS = new Set(['/v1', '/v1/']);
/** The HTTP+JSON binding's paths (`/v1/message:send`, `/v1/tasks/…`) sit below the same URL. */
const REST_PREFIX = '/v1/';

/**
 * The HTTP side of `POST /a2a/v1` (docs/a2a.md#limits-and-errors), served by plain `node:http` ahead of express (see
 * mountA2aEndpoint): it reads its own body with its own limit (1 MiB, plus room for the operator's file limit) and writes
 * every byte of its answers. Order of checks: channel enabled and route (404), the front door both bindings share
 * (front-door.ts: bearer token 401, before a byte of the body is read; body size 413), then JSON-RPC. Errors at the
 * HTTP level are small problem+json bodies that reveal nothing else.
 * Paths below `/a2a/v1/` are the HTTP+JSON binding's (A2aRestEndpoint), which answers in that binding's own error format.
 */
@Injectable()
export class A2aHttpEndpoint {
  private readonly logger = new Logger('a2a');

  constructor(
    private readonly config: ConfigStore,
    private readonly rpc: A2aRpcService,
    private readonly rest: A2aRestEndpoint,
    private readonly refusals: AuthRefusals,
  ) {}

  /** The `node:http` handler ahead of the framework: answers every plain request target under `/a2a`, declines the rest. */
  readonly serveAhead = (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = a2aSubpath(req.url);
    if (path === undefined) return false;
    this.handle(req, res, path);
    return true;
  };

  /** Everything under `/a2a`; `path` is the part after the mount (`/v1`), as express's `req.path` gives it. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): void {
    this.serve(req, res, path).catch((err: unknown) => {
      this.logger.error(`A2A request failed: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.headersSent) sendProblem(res, 500, 'the request could not be processed');
      else res.destroy();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const { config } = this.config.current();
    const a2a = config.channels.a2a;
    if (!a2a.enabled) return sendProblem(res, 404, 'the A2A channel is not enabled');
    if (path.startsWith(REST_PREFIX) && path.length > REST_PREFIX.length) {
      return this.rest.serve(req, res, path.slice(REST_PREFIX.length - 1), config);
    }
    if (req.method !== 'POST' || !RPC_PATHS.has(path)) {
      return sendProblem(res, 404, 'the A2A endpoints are POST /a2a/v1 (JSON-RPC) and the HTTP+JSON routes below /a2a/v1/');
    }

    const admitted = await passFrontDoor(req, res, a2a, { readBody: true, refuse: refuseWithProblem, refusals: this.refusals });
    if (!admitted?.body) return;

    // The gateway-wide safety net (see SecretShield): a configured secret an agent echoes never leaves verbatim.
    const caller = { peer: admitted.peer, origin: () => cardOrigin(config, req) };
    const answer = await this.rpc.handle(caller, admitted.body, readRequestVersion(requestedA2aVersion(req)), lastEventIdOf(req));
    if (typeof answer !== 'string') {
      if (res.destroyed || res.headersSent) return answer.result.stream.close();
      const { id } = answer;
      const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
      return answerWithStream(res, answer.result, {
        item: (json) => `${prefix}${json}}`,
        error: (error) => ({ data: answer.error(error) }),
      });
    }
    const out = maskSecrets(answer);
    if (res.destroyed || res.headersSent) return;
    if (!out) {
      res.writeHead(200, { 'Content-Length': '0' });
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(out, 'utf8')) });
    res.end(out);
  }
}

/** HTTP-level refusals of the endpoint: small bodies that reveal nothing else (no `instance` either). */
function sendProblem(res: ServerResponse, status: number, detail: string): void {
  writeProblem(res, problem(status, detail));
}

/** The front door's refusals (401, 413) as the endpoint's other HTTP-level ones: status and detail only. */
function refuseWithProblem(res: ServerResponse, error: AppError): void {
  sendProblem(res, HTTP_STATUS_BY_CODE[error.code], error.detail);
}
