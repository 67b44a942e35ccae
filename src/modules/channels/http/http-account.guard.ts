import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';
import { bearerToken } from '../../../common/http/bearer-token';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ConfigStore } from '../../config';
import { authenticateAccount } from './account-auth';

/** Where the guard leaves the authenticated account id on the request. */
const ACCOUNT_KEY = Symbol('httpChannelAccount');
type WithAccount = Request & { [ACCOUNT_KEY]?: string };

export const HTTP_CHANNEL_CHALLENGE = 'Bearer realm="clawgate http channel"';

/**
 * The checks of the inbound http channel, in order: 404 while `channels.http.enabled` is not true, then the
 * bearer token must equal a usable account's token (that account is the caller's identity). Throws the
 * AppError to answer with; `challenge` is called before a 401. Config is read per request, so rotated
 * tokens apply at once.
 */
export function authenticateHttpChannel(config: ConfigStore, headers: IncomingHttpHeaders, challenge: () => void): string {
  const http = config.current().config.channels.http;
  if (!http.enabled) throw new AppError(ErrorCode.NotFound, 'the http channel is not enabled');
  const account = authenticateAccount(http.accounts, bearerToken(headers.authorization, 'rest-of-value'));
  if (!account) {
    challenge();
    // One answer for every failure (no header, wrong scheme, unknown or unusable token).
    throw new AppError(ErrorCode.Unauthenticated, 'a valid bearer token is required');
  }
  return account.id;
}

/**
 * Gate of the inbound http channel inside Nest (see authenticateHttpChannel). The HttpChannelGate already
 * ran the same checks before the body was read; this guard keeps the route closed wherever it is mounted
 * and names the account for the handler. A guard runs before the ValidationPipe, so an unauthenticated
 * caller never learns anything about the body schema.
 */
@Injectable()
export class HttpAccountGuard implements CanActivate {
  constructor(private readonly config: ConfigStore) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<WithAccount>();
    const res = context.switchToHttp().getResponse<Response>();
    req[ACCOUNT_KEY] = authenticateHttpChannel(this.config, req.headers, () => res.setHeader('WWW-Authenticate', HTTP_CHANNEL_CHALLENGE));
    return true;
  }
}

/** The id of the account the HttpAccountGuard authenticated. */
export const HttpAccountId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const id = context.switchToHttp().getRequest<WithAccount>()[ACCOUNT_KEY];
  if (!id) throw new Error('HttpAccountId used on a route without HttpAccountGuard');
  return id;
});
