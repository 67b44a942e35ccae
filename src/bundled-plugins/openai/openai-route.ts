import type { PluginCallerKey, PluginHttpRequest, PluginHttpResponse, PluginHttpRoute, PluginKeyGate } from '../../plugin-sdk';
import { ErrorCode } from '../../plugin-sdk';
import { runChat } from './chat-turn';
import { modelObject } from './completion-wire';
import type { OpenAiChannel } from './openai-channel';
import { OpenAiEndpointError, openAiErrorResponse } from './openai-errors';

/** Where the endpoint lives; everything below it answers in OpenAI's formats. */
export const OPENAI_ENDPOINT_PATH = '/v1';
export const OPENAI_CHALLENGE = 'Bearer realm="clawgate openai endpoint"';

type Route =
  { kind: 'chat' } | { kind: 'models' } | { kind: 'model'; id: string } | { kind: 'method'; allow: string } | { kind: 'unknown' };

/**
 * `/v1/chat/completions` and `/v1/models`: agents behind the OpenAI Chat Completions API (docs/openai-endpoint.md),
 * one route over `/v1` and everything below it, any method, served ahead of the body parsers. Before a byte of the
 * body is read: the endpoint must be on (404), the path one of its own (404) asked with its method (405) — the
 * `precheck` — then the key valid (401) and within its rate (429) — the key gate over
 * `gateway.http.endpoints.chatCompletions.keys`. Then at most 1 MiB of JSON (413, read by the endpoint itself: any
 * media type), checked field by field (400), and run for the agent the request names. Every answer, errors included,
 * is in OpenAI's shape (`errorResponse`).
 */
export function openAiRoute(channel: OpenAiChannel, gate: PluginKeyGate): PluginHttpRoute {
  /** `created` of every model: when this endpoint started serving them. */
  const startedAt = Math.floor(Date.now() / 1000);
  return {
    method: '*',
    path: `${OPENAI_ENDPOINT_PATH}/*`,
    absolute: true,
    auth: 'public',
    challenge: OPENAI_CHALLENGE,
    parseBody: false,
    keyGate: gate,
    errorResponse: openAiErrorResponse,
    precheck: (request) => void routeChecked(channel, request),
    handle: async (request) => {
      const route = routeChecked(channel, request);
      const key = request.key!;
      if (route.kind === 'models')
        return { status: 200, body: { object: 'list', data: key.agents().map((id) => modelObject(id, startedAt)) } };
      if (route.kind === 'model') return getModel(key, route.id, startedAt);
      return runChat(channel.current()!.context, key, request);
    },
  };
}

/** The endpoint is on and the request names one of its routes with its method; throws the 404 or 405 otherwise. */
function routeChecked(
  channel: OpenAiChannel,
  request: Omit<PluginHttpRequest, 'body' | 'rawBody'>,
): Exclude<Route, { kind: 'method' | 'unknown' }> {
  if (!channel.current()) {
    throw new OpenAiEndpointError(
      ErrorCode.NotFound,
      'the OpenAI-compatible endpoint is not enabled (gateway.http.endpoints.chatCompletions.enabled)',
      'not_found',
    );
  }
  const route = routeOf(request.method, request.path.slice(OPENAI_ENDPOINT_PATH.length));
  if (route.kind === 'unknown')
    throw new OpenAiEndpointError(ErrorCode.NotFound, `Invalid URL (${request.method} ${request.path})`, 'not_found');
  if (route.kind === 'method') {
    throw new OpenAiEndpointError(
      ErrorCode.MethodNotAllowed,
      `${request.method} is not allowed here; use ${route.allow}`,
      'method_not_allowed',
      null,
      { Allow: route.allow },
    );
  }
  return route;
}

function getModel(key: PluginCallerKey, id: string, startedAt: number): PluginHttpResponse {
  const found = key.agents().find((agentId) => `agent:${agentId}` === id);
  if (!found)
    throw new OpenAiEndpointError(ErrorCode.NotFound, `The model \`${id.slice(0, 200)}\` does not exist`, 'model_not_found', 'model');
  return { status: 200, body: modelObject(found, startedAt) };
}

/** The routes below /v1 (`path` is what follows it). */
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
