import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { INestApplication } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import { ErrorCode } from '../../../common/errors/error-code';
import { AppError } from '../../../common/errors/app-error';
import { readLimitedBody } from '../../../common/http/limited-body';
import { SseResponse } from '../../../common/http/sse-response';
import { jsonDepthExceeds } from '../../../common/json-depth';
import { ConfigStore, type ChatCompletionsKey } from '../../config';
import { AuthRefusals, GatewayMetrics } from '../../metrics';
import { isTerminalRunStatus, type RunRecord } from '../../runtime';
import { AGENT_ID_HEADER, ChatCompletionsService, SESSION_KEY_HEADER, type ChatTarget } from './chat-completions.service';
import { parseChatRequest, type ChatTurn } from './chat-request';
import { chatCompletion, completionChunk, completionIds, modelObject, usageChunk, type CompletionIds } from './completion-wire';
import { EndpointKeyGate } from '../endpoint-keys/endpoint-key-gate';
import { agentsForKey } from '../endpoint-keys/endpoint-keys';
import { invalidRequest, openAiErrorOf, OpenAiEndpointError, writeJson, writeOpenAiError } from './openai-errors';

/** Where the endpoint lives; everything below it answers in OpenAI's formats. */
export const OPENAI_ENDPOINT_PATH = '/v1';
/** Largest request body (OpenAI's own limit is larger; an agent message is at most 64 Ki characters). */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** Deepest JSON accepted, as for every other body of the gateway. */
const MAX_BODY_DEPTH = 64;
const CHALLENGE = 'Bearer realm="clawgate openai endpoint"';

/**
 * `/v1/chat/completions` and `/v1/models`: agents behind the OpenAI Chat Completions API
 * (docs/openai-endpoint.md). Mounted ahead of the body parsers: the endpoint must be on (404) and the key
 * valid (401) and within its rate (429) before a byte of the body is read; then at most 1 MiB of JSON (413),
 * checked field by field (400), routed and run like any channel message. Every answer, errors included, is in
 * OpenAI's shape, and goes through the secret masker.
 */
@Injectable()
export class OpenAiEndpoint implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('channel.openai');
  private readonly gate: EndpointKeyGate;
  /** `created` of every model: when this gateway started serving them. */
  private readonly startedAt = Math.floor(Date.now() / 1000);

  constructor(
    private readonly config: ConfigStore,
    private readonly chats: ChatCompletionsService,
    metrics: GatewayMetrics,
    refusals: AuthRefusals,
  ) {
    this.gate = new EndpointKeyGate('openai', (s) => s.config.gateway.http.endpoints.chatCompletions, { config, metrics, refusals });
  }

  onModuleInit(): void {
    this.gate.start();
  }

  onModuleDestroy(): void {
    this.gate.stop();
  }

  readonly handler: RequestHandler = (req, res) => {
    this.serve(req, res).catch((err: unknown) => this.fail(res, err));
  };

  private async serve(req: Request, res: Response): Promise<void> {
    const settings = this.config.current().config.gateway.http.endpoints.chatCompletions;
    if (!settings.enabled) {
      throw new OpenAiEndpointError(
        ErrorCode.NotFound,
        'the OpenAI-compatible endpoint is not enabled (gateway.http.endpoints.chatCompletions.enabled)',
        'not_found',
      );
    }
    const route = routeOf(req.method, req.path);
    if (route.kind === 'unknown')
      throw new OpenAiEndpointError(ErrorCode.NotFound, `Invalid URL (${req.method} ${req.originalUrl.split('?')[0]})`, 'not_found');
    if (route.kind === 'method') {
      res.setHeader('Allow', route.allow);
      throw new OpenAiEndpointError(
        ErrorCode.MethodNotAllowed,
        `${req.method} is not allowed here; use ${route.allow}`,
        'method_not_allowed',
      );
    }
    const verdict = this.gate.admit(req, settings);
    if (verdict.kind === 'unauthenticated') {
      res.setHeader('WWW-Authenticate', CHALLENGE);
      // One answer for every failure: no header, another scheme, an unknown token, a key whose variable is unset.
      throw new OpenAiEndpointError(ErrorCode.Unauthenticated, 'Incorrect API key provided', 'invalid_api_key');
    }
    if (verdict.kind === 'rate-limited') {
      throw new OpenAiEndpointError(
        ErrorCode.RateLimited,
        `Rate limit reached for key "${verdict.key.name}": ${verdict.limit} requests per minute`,
        'rate_limit_exceeded',
      );
    }
    const { key } = verdict;
    if (route.kind === 'models') return this.listModels(res, key);
    if (route.kind === 'model') return this.getModel(res, key, route.id);
    return this.chat(req, res, key);
  }

  private listModels(res: Response, key: ChatCompletionsKey): void {
    const agents = agentsForKey(key, this.config.current().config.agents);
    writeJson(res, 200, { object: 'list', data: agents.map((a) => modelObject(a.id, this.startedAt)) });
  }

  private getModel(res: Response, key: ChatCompletionsKey, id: string): void {
    const found = agentsForKey(key, this.config.current().config.agents).find((a) => `agent:${a.id}` === id);
    if (!found)
      throw new OpenAiEndpointError(ErrorCode.NotFound, `The model \`${id.slice(0, 200)}\` does not exist`, 'model_not_found', 'model');
    writeJson(res, 200, modelObject(found.id, this.startedAt));
  }

  private async chat(req: Request, res: Response, key: ChatCompletionsKey): Promise<void> {
    const turn = parseChatRequest(await readJsonBody(req), headerOf(req, AGENT_ID_HEADER));
    const target = this.chats.target(key, turn, headerOf(req, SESSION_KEY_HEADER));
    res.setHeader(SESSION_KEY_HEADER, target.sessionKey);
    if (turn.stream) return this.streamChat(res, key, turn, target);
    const run = await this.chats.start(key, turn, target).done;
    if (run.status !== 'completed') {
      // A budget used up: OpenAI's 429, with the seconds until it resets (docs/usage.md#budgets).
      if (run.refusal?.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(run.refusal.retryAfterSeconds));
      else res.setHeader('x-should-retry', 'false');
      throw runError(run);
    }
    writeJson(res, 200, chatCompletion(completionIds(run.runId, target.agentId), run));
  }

  /**
   * `stream: true`: `chat.completion.chunk` events as the agent writes, then the finish chunk, the usage chunk
   * when asked for, and `data: [DONE]`. Text the agent writes before calling a tool streams too, followed by a
   * blank line, so what a client shows reads as one answer (docs/openai-endpoint.md#streaming).
   */
  private async streamChat(res: Response, key: ChatCompletionsKey, turn: ChatTurn, target: ChatTarget): Promise<void> {
    const sse = new SseResponse(res);
    // Filled once the run has its id; the round of the last delta, and whether any text went out yet.
    const state: { ids?: CompletionIds; round: number; wrote: boolean } = { round: -1, wrote: false };
    const send = (delta: Record<string, unknown>, finish: string | null = null) =>
      sse.json(undefined, completionChunk(state.ids!, delta, finish, turn.includeUsage));
    const handle = this.chats.start(key, turn, target, (delta) => {
      const separator = delta.round !== state.round && state.wrote ? '\n\n' : '';
      state.round = delta.round;
      state.wrote = true;
      send({ content: separator + delta.text });
    });
    // No delta can come before this: the run reaches its model only after awaiting its transcript write.
    const ids = (state.ids = completionIds(handle.runId, target.agentId));
    send({ role: 'assistant', content: '', refusal: null });
    const run = await handle.done;
    if (run.status === 'completed') {
      send({}, 'stop');
      if (turn.includeUsage) sse.json(undefined, usageChunk(ids, run));
      sse.event(undefined, '[DONE]');
    } else {
      // What OpenAI sends when a stream fails after its start; client libraries raise it as an API error.
      sse.json(undefined, openAiErrorOf(runError(run)).body);
    }
    sse.end();
  }

  private fail(res: Response, err: unknown): void {
    if (!(err instanceof AppError)) this.logger.error(`request failed: ${(err as Error)?.stack ?? String(err)}`);
    if (res.headersSent) {
      res.end();
      return;
    }
    const headers: Record<string, string> = {};
    if (err instanceof AppError && err.code === ErrorCode.PayloadTooLarge) headers.Connection = 'close';
    writeOpenAiError(res, err, headers);
  }
}

type Route =
  { kind: 'chat' } | { kind: 'models' } | { kind: 'model'; id: string } | { kind: 'method'; allow: string } | { kind: 'unknown' };

/** The routes below /v1 (express has taken the mount path off `path`). */
function routeOf(method: string, path: string): Route {
  const clean = path.replace(/\/+$/, '') || '/';
  if (clean === '/chat/completions') return method === 'POST' ? { kind: 'chat' } : { kind: 'method', allow: 'POST' };
  if (clean === '/models') return method === 'GET' ? { kind: 'models' } : { kind: 'method', allow: 'GET' };
  const model = /^\/models\/([^/]+)$/.exec(clean);
  if (model) return method === 'GET' ? { kind: 'model', id: decodedSegment(model[1]) } : { kind: 'method', allow: 'GET' };
  return { kind: 'unknown' };
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // not a valid escape: it names no model, and the lookup says so
  }
}

/** The body as JSON: at most 1 MiB (413), valid JSON (400), nested at most 64 levels (400). Any media type is read as JSON. */
async function readJsonBody(req: Request): Promise<unknown> {
  const body = await readLimitedBody(req, MAX_REQUEST_BYTES);
  if (body.kind === 'too-large') {
    throw new OpenAiEndpointError(
      ErrorCode.PayloadTooLarge,
      `the request body is larger than ${MAX_REQUEST_BYTES} bytes`,
      'request_too_large',
    );
  }
  if (body.kind === 'aborted') throw invalidRequest('the request body was not received completely', null, 'invalid_json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.bytes.toString('utf8'));
  } catch {
    throw invalidRequest(
      'We could not parse the JSON body of your request. The body must be a JSON object (Content-Type: application/json).',
      null,
      'invalid_json',
    );
  }
  if (jsonDepthExceeds(parsed, MAX_BODY_DEPTH))
    throw invalidRequest(`the request body is nested more than ${MAX_BODY_DEPTH} levels deep`, null, 'invalid_json');
  return parsed;
}

function headerOf(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  if (Array.isArray(value)) throw invalidRequest(`${name} must be given once`, name, 'invalid_value');
  return value;
}

/** A run that did not complete. The message reached the agent, so the answer also says not to retry (x-should-retry). */
function runError(run: RunRecord): OpenAiEndpointError {
  const reason = run.error ?? run.status;
  if (run.refusal) return new OpenAiEndpointError(ErrorCode.RateLimited, reason, 'budget_exhausted');
  const aborted = run.status === 'aborted' || !isTerminalRunStatus(run.status);
  return new OpenAiEndpointError(
    aborted ? ErrorCode.Unavailable : ErrorCode.UpstreamFailed,
    `the agent's run ${run.status}: ${reason}`,
    aborted ? 'agent_run_aborted' : 'agent_run_failed',
  );
}

/** Mounts the endpoint at /v1. Call it before the global body parsers are registered (see bootstrap). */
export function mountOpenAiEndpoint(app: INestApplication): void {
  app.use(OPENAI_ENDPOINT_PATH, app.get(OpenAiEndpoint).handler);
}
