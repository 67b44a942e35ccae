import type { ServerResponse } from 'node:http';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { HTTP_STATUS_BY_CODE } from '../../../common/errors/problem-details';
import { maskSecrets } from '../../../common/secrets/secret-mask';

/**
 * The error an OpenAI client understands: OpenAI's `{error: {message, type, param, code}}`. `code` and `param`
 * are what OpenAI's own API puts there (`invalid_api_key`, `model_not_found`, the request field at fault), so a
 * client library shows the same thing it shows for OpenAI.
 */
export class OpenAiEndpointError extends AppError {
  constructor(
    code: ErrorCode,
    detail: string,
    readonly openAiCode: string | null = null,
    readonly param: string | null = null,
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

/** Status and body of any error at this edge: the HTTP table for the status, OpenAI's shape for the body. */
export function openAiErrorOf(err: unknown): { status: number; body: OpenAiErrorBody } {
  if (!(err instanceof AppError)) {
    // Anything else is a bug: nothing internal reaches the caller (the endpoint logs it).
    return {
      status: 500,
      body: { error: { message: 'The request could not be processed.', type: 'server_error', param: null, code: null } },
    };
  }
  const status = HTTP_STATUS_BY_CODE[err.code];
  const own = err instanceof OpenAiEndpointError ? err : undefined;
  return {
    status,
    body: { error: { message: err.detail, type: openAiErrorType(status), param: own?.param ?? null, code: own?.openAiCode ?? null } },
  };
}

/** Writes an error answer (masked like every response); `headers` e.g. WWW-Authenticate. */
export function writeOpenAiError(res: ServerResponse, err: unknown, headers: Record<string, string> = {}): void {
  const { status, body } = openAiErrorOf(err);
  writeJson(res, status, body, headers);
}

/** A JSON answer through the secret masker (this endpoint answers ahead of express and its masking middleware). */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = maskSecrets(JSON.stringify(body));
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export const invalidRequest = (message: string, param: string | null, code: string | null = null) =>
  new OpenAiEndpointError(ErrorCode.BadRequest, message, code, param);
