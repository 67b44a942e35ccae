import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { bearerToken } from '../../../common/http/bearer-token';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ConfigStore } from '../../config';
import { authenticateAccount } from './account-auth';

/** Where the guard leaves the authenticated account id on the request. */
const ACCOUNT_KEY = Symbol('httpChannelAccount');
type WithAccount = Request & { [ACCOUNT_KEY]?: string };

/**
 * Gate of the inbound http channel: 404 while `channels.http.enabled` is not true, then the bearer token
 * must equal a usable account's token (that account is the caller's identity). A guard rather than a
 * check in the handler because guards run before the ValidationPipe: an unauthenticated caller gets 401
 * and learns nothing about the body schema. Config is read per request, so rotated tokens apply at once.
 */
@Injectable()
export class HttpAccountGuard implements CanActivate {
  constructor(private readonly config: ConfigStore) {}

  canActivate(context: ExecutionContext): boolean {
    const http = this.config.current().config.channels.http;
    if (!http.enabled) throw new AppError(ErrorCode.NotFound, 'the http channel is not enabled');
    const req = context.switchToHttp().getRequest<WithAccount>();
    const account = authenticateAccount(http.accounts, bearerToken(req.headers.authorization, 'rest-of-value'));
    if (!account) {
      context.switchToHttp().getResponse<Response>().setHeader('WWW-Authenticate', 'Bearer realm="clawgate http channel"');
      // One answer for every failure (no header, wrong scheme, unknown or unusable token).
      throw new AppError(ErrorCode.Unauthenticated, 'a valid bearer token is required');
    }
    req[ACCOUNT_KEY] = account.id;
    return true;
  }
}

/** The id of the account the HttpAccountGuard authenticated. */
export const HttpAccountId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const id = context.switchToHttp().getRequest<WithAccount>()[ACCOUNT_KEY];
  if (!id) throw new Error('HttpAccountId used on a route without HttpAccountGuard');
  return id;
});
