import { HTTP_STATUS_BY_CODE } from '../../common/errors/problem-details';
import { AppError, ErrorCode, type PluginHttpResponse, type PluginRouteError } from '../../plugin-sdk';

/** Largest request body (OpenAI's own limit is larger; an agent message is at most 64 Ki characters): the routes' limit. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * The error an OpenAI client understands: OpenAI's `{error: {message, type, param, code}}`. `code` and `param`
 * are what OpenAI's own API puts there (`invalid_api_key`, `model_not_found`, the request field at fault), so a
 * client library shows the same thing it shows for OpenAI. `headers` go with the answer (Allow, Retry-After, the
 * session the request ran in).
 */
export class OpenAiEndpointError extends AppError {
  constructor(
    code: ErrorCode,
    detail: string,
    readonly openAiCode: string | null = null,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(code, detail);
    this.name = 'OpenAiEndpointError';
  }
}

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** The `type` OpenAI gives a status: its own names, so clients that switch on them behave the same. */
export function openAiErrorType(status: number): string {
  if (status === 429) return 'requests';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/** Status and body of an error of this endpoint, in OpenAI's shape (also what a failed stream sends as its last event). */
export function openAiErrorOf(err: AppError): { status: number; body: OpenAiErrorBody } {
  const status = HTTP_STATUS_BY_CODE[err.code];
  const own = err instanceof OpenAiEndpointError ? err : undefined;
  return {
    status,
    body: { error: { message: err.detail, type: openAiErrorType(status), param: own?.param ?? null, code: own?.openAiCode ?? null } },
  };
}

/**
 * Every error of the endpoint's route (`errorResponse`): what the endpoint threw as it is; the gateway's refusals
 * before the body is read (the key gate's 401 and 429, the 413 of a body over the limit) in OpenAI's words; a failure
 * of the code a 500 that says nothing of it.
 */
export function openAiErrorResponse(error: PluginRouteError): PluginHttpResponse {
  const err = openAiErrorFor(error);
  if (!err) {
    return {
      status: 500,
      body: { error: { message: 'The request could not be processed.', type: 'server_error', param: null, code: null } },
    };
  }
  const { status, body } = openAiErrorOf(err);
  return { status, headers: err instanceof OpenAiEndpointError ? err.headers : {}, body };
}

function openAiErrorFor(error: PluginRouteError): AppError | undefined {
  if (error.thrown instanceof AppError) return error.thrown;
  const gate = error.keyGate;
  // One answer for every failure: no header, another scheme, an unknown token, a key whose variable is unset.
  if (gate?.refusal === 'unauthenticated')
    return new OpenAiEndpointError(ErrorCode.Unauthenticated, 'Incorrect API key provided', 'invalid_api_key');
  if (gate?.refusal === 'rate-limited') {
    return new OpenAiEndpointError(
      ErrorCode.RateLimited,
      `Rate limit reached for key "${gate.key}": ${gate.limitPerMinute} requests per minute`,
      'rate_limit_exceeded',
    );
  }
  if (error.code === (ErrorCode.PayloadTooLarge as string)) {
    return new OpenAiEndpointError(
      ErrorCode.PayloadTooLarge,
      `the request body is larger than ${MAX_REQUEST_BYTES} bytes`,
      'request_too_large',
    );
  }
  // The body was not received whole: its client is gone.
  if (error.code === (ErrorCode.BadRequest as string))
    return invalidRequest('the request body was not received completely', null, 'invalid_json');
  if (error.status >= 500) return undefined;
  return new AppError(error.code as ErrorCode, error.message);
}

export const invalidRequest = (message: string, param: string | null, code: string | null = null) =>
  new OpenAiEndpointError(ErrorCode.BadRequest, message, code, param);
