import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import {
  HTTP_STATUS_BY_CODE,
  instanceOf,
  internalProblem,
  problemFromAppError,
  writeProblem,
  type ProblemDetails,
} from '../../common/errors/problem-details';
import type { PluginHttpRoute, PluginRouteError } from '../../plugin-sdk';
import { asAppError, messageOf } from './plugin-errors';
import type { PluginGateVerdict } from './plugin-key-gate';
import { send } from './plugin-route-io';

/** A route refused by the gateway itself (its key gate, its body checks), on the way to the route's answer. */
export class RouteRefusal extends AppError {
  private constructor(
    code: ErrorCode,
    detail: string,
    readonly keyGate?: PluginRouteError['keyGate'],
    readonly problem?: ProblemDetails,
  ) {
    super(code, detail);
  }

  /** The key gate's 401 (no valid key) or 429 (the key over its rate). */
  static ofGate(verdict: Exclude<PluginGateVerdict, { kind: 'admitted' }>): RouteRefusal {
    if (verdict.kind === 'unauthenticated') {
      return new RouteRefusal(ErrorCode.Unauthenticated, 'a valid bearer key is required', { refusal: 'unauthenticated' });
    }
    return new RouteRefusal(ErrorCode.RateLimited, `key "${verdict.key}" is over its rate limit of ${verdict.limit} requests per minute`, {
      refusal: 'rate-limited',
      key: verdict.key,
      limitPerMinute: verdict.limit,
    });
  }

  /** The body's 413 or 400, as the gateway words it. */
  static ofBody(problem: ProblemDetails): RouteRefusal {
    const code = problem.status === 413 ? ErrorCode.PayloadTooLarge : ErrorCode.BadRequest;
    return new RouteRefusal(code, problem.detail ?? '', undefined, problem);
  }
}

/** What answering an error needs of the routes: counting a refused credential, and the log. */
export interface PluginRouteAnswerer {
  refused(req: IncomingMessage, plugin: string): void;
  log(plugin: string, line: string): void;
}

/**
 * Answers what a route's checks or code threw. An `AppError` (the route's or the gateway's refusal) by its code: a 401
 * gets the route's challenge and is counted as a refused credential, a 413 closes the connection. Anything else is a
 * failure of the plugin's code: logged, and a 500 that says nothing of it. The answer is problem+json, or the route's
 * own shape when it has an `errorResponse` (one that throws or answers nothing leaves the problem+json).
 */
export function answerError(
  answerer: PluginRouteAnswerer,
  req: Request,
  res: Response,
  plugin: string,
  route: PluginHttpRoute,
  err: unknown,
): void {
  const instance = instanceOf(req.originalUrl);
  const known = asAppError(err);
  if (!known) {
    answerer.log(plugin, `plugin ${plugin}: route ${route.method} ${route.path} threw: ${(err as Error)?.stack ?? String(err)}`);
  } else if (known.code === ErrorCode.Unauthenticated) {
    if (route.challenge) res.setHeader('WWW-Authenticate', route.challenge);
    answerer.refused(req, plugin);
  } else if (known.code === ErrorCode.PayloadTooLarge) {
    res.setHeader('Connection', 'close');
  }
  const problem =
    err instanceof RouteRefusal && err.problem
      ? { ...err.problem, instance }
      : known
        ? problemFromAppError(known, instance)
        : internalProblem(instance);
  const own = route.errorResponse && ownAnswer(answerer, plugin, route, err, known, problem.detail ?? '');
  if (own) return send(res, { ...own, status: own.status ?? problem.status });
  writeProblem(res, problem);
}

function ownAnswer(
  answerer: PluginRouteAnswerer,
  plugin: string,
  route: PluginHttpRoute,
  err: unknown,
  known: AppError | undefined,
  message: string,
) {
  const refusal = err instanceof RouteRefusal ? err : undefined;
  const error: PluginRouteError = {
    status: known ? HTTP_STATUS_BY_CODE[known.code] : 500,
    code: known?.code ?? ErrorCode.Internal,
    message,
    ...(known && !refusal ? { thrown: err } : {}),
    ...(refusal?.keyGate ? { keyGate: refusal.keyGate } : {}),
  };
  try {
    const answer = route.errorResponse!(error);
    if (answer && typeof answer === 'object') return answer;
    answerer.log(plugin, `plugin ${plugin}: route ${route.method} ${route.path}: errorResponse answered nothing`);
  } catch (thrown) {
    answerer.log(plugin, `plugin ${plugin}: route ${route.method} ${route.path}: errorResponse threw: ${messageOf(thrown)}`);
  }
  return undefined;
}
