import { Injectable } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { AppError } from '../../../common/errors/app-error';
import { instanceOf, problemFromAppError, writeProblem } from '../../../common/errors/problem-details';
import { ErrorCode } from '../../../common/errors/error-code';
import { ConfigStore } from '../../config';
import { AuthRefusals } from '../../metrics';
import { authenticateHttpChannel, HTTP_CHANNEL_CHALLENGE } from './http-account.guard';

/** The inbound route of the http channel (HttpChannelController). */
export const HTTP_CHANNEL_MESSAGES_PATH = '/channels/http/messages';

/**
 * Express-level gate in front of `POST /channels/http/messages`, mounted ahead of the body parsers: the
 * channel must be on (404) and the bearer token an account's (401) before a byte of the body is read, so an
 * anonymous client can neither make the gateway parse up to 2 MiB nor tell a malformed body from a good one.
 * The answers are the ones the HttpAccountGuard gives (same problem+json, same WWW-Authenticate); other
 * methods and paths pass through to Nest untouched.
 */
@Injectable()
export class HttpChannelGate {
  constructor(
    private readonly config: ConfigStore,
    private readonly refusals: AuthRefusals,
  ) {}

  readonly handler: RequestHandler = (req, res, next) => {
    // Mounted on the route's path: `req.path` is what follows it.
    if (req.method !== 'POST' || req.path !== '/') return next();
    try {
      authenticateHttpChannel(this.config, req.headers, () => res.setHeader('WWW-Authenticate', HTTP_CHANNEL_CHALLENGE));
    } catch (err) {
      if (!(err instanceof AppError)) return next(err);
      // Counted and warned here only: a refused request never reaches the HttpAccountGuard's repeat of the check.
      if (err.code === ErrorCode.Unauthenticated) this.refusals.refused('http', req);
      // The rest of the body is never read; Node discards it or closes the connection.
      return writeProblem(res, problemFromAppError(err, instanceOf(req.originalUrl)));
    }
    next();
  };
}

/** Mounts the gate. Call it before the global body parsers are registered (see bootstrap). */
export function mountHttpChannelGate(app: INestApplication): void {
  app.use(HTTP_CHANNEL_MESSAGES_PATH, app.get(HttpChannelGate).handler);
}
