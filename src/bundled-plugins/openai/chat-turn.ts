import { EventQueue } from '../../common/event-queue';
import { jsonDepthExceeds } from '../../common/json-depth';
import type {
  ChannelAgentRun,
  ChannelAgentRunResult,
  ChannelContext,
  PluginCallerKey,
  PluginHttpRequest,
  PluginHttpResponse,
  PluginServerSentEvent,
} from '../../plugin-sdk';
import { AppError, ErrorCode } from '../../plugin-sdk';
import { parseChatRequest, type ChatTurn } from './chat-request';
import { chatCompletion, completionChunk, completionIds, usageChunk, type CompletionIds } from './completion-wire';
import { invalidRequest, openAiErrorOf, OpenAiEndpointError } from './openai-errors';

/** The header that names a session, and the one that answers which session a request ran in. */
export const SESSION_KEY_HEADER = 'x-openclaw-session-key';
export const AGENT_ID_HEADER = 'x-openclaw-agent-id';
/** Deepest JSON accepted, as for every other body of the gateway. */
const MAX_BODY_DEPTH = 64;

/**
 * `POST /v1/chat/completions`: the body checked field by field, the agent the request names (a key may use only its
 * own agents: 403 before 404), the session `x-openclaw-session-key` names, else the `user`'s direct session on this
 * channel, else a new session for this request alone; then the run, answered whole or streamed.
 */
export async function runChat(context: ChannelContext, key: PluginCallerKey, request: PluginHttpRequest): Promise<PluginHttpResponse> {
  const turn = parseChatRequest(jsonBody(request.rawBody), headerOf(request, AGENT_ID_HEADER));
  if (!key.mayUse(turn.agentId)) {
    throw new OpenAiEndpointError(
      ErrorCode.Forbidden,
      `this key may not use the model \`agent:${turn.agentId}\``,
      'model_not_allowed',
      'model',
    );
  }
  const sessionHeader = headerOf(request, SESSION_KEY_HEADER);
  const deltas = turn.stream ? new EventQueue<PluginServerSentEvent>() : undefined;
  // The round of the last delta, and whether any text went out yet; the ids once the run has its id.
  const state: { ids?: CompletionIds; round: number; wrote: boolean } = { round: -1, wrote: false };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): PluginServerSentEvent => ({
    data: completionChunk(state.ids!, delta, finish, turn.includeUsage),
  });
  const run = startTurn(context, key, turn, sessionHeader, (delta) => {
    // Text the agent writes before calling a tool streams too, followed by a blank line, so it reads as one answer.
    const separator = delta.round !== state.round && state.wrote ? '\n\n' : '';
    state.round = delta.round;
    state.wrote = true;
    deltas?.push(chunk({ content: separator + delta.text }));
  });
  // No delta can come before this: the run reaches its model only after awaiting its transcript write.
  const ids = (state.ids = completionIds(run.runId, run.agentId));
  const sessionHeaders = { [SESSION_KEY_HEADER]: run.sessionKey };
  if (deltas) {
    void run.done.then((result) => {
      for (const event of streamEnd(ids, turn, result)) deltas.push(event);
      deltas.close();
    });
    return { status: 200, headers: sessionHeaders, events: deltas.after(chunk({ role: 'assistant', content: '', refusal: null })) };
  }
  const result = await run.done;
  if (result.status !== 'completed') {
    // A budget used up: OpenAI's 429, with the seconds until it resets (docs/usage.md#budgets).
    const retry: Record<string, string> =
      result.refusal?.retryAfterSeconds !== undefined
        ? { 'retry-after': String(result.refusal.retryAfterSeconds) }
        : { 'x-should-retry': 'false' };
    throw runError(result, { ...sessionHeaders, ...retry });
  }
  return { status: 200, headers: sessionHeaders, body: chatCompletion(ids, result) };
}

/** The run, or the agent's 404 and the session key's 400 in OpenAI's words. */
function startTurn(
  context: ChannelContext,
  key: PluginCallerKey,
  turn: ChatTurn,
  sessionKey: string | undefined,
  onDelta: (delta: { round: number; text: string }) => void,
): ChannelAgentRun {
  try {
    return context.runTurn({
      accountId: key.name,
      agentId: turn.agentId,
      text: turn.text,
      ...(sessionKey !== undefined ? { sessionKey, sessionKeyLabel: SESSION_KEY_HEADER } : {}),
      ...(turn.user ? { peerId: turn.user } : {}),
      meta: { key: key.name, ...(turn.user ? { user: turn.user } : {}) },
      ...(turn.stream ? { onReplyDelta: onDelta } : {}),
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const item = err.errors?.[0] ?? {};
    if (item.field === 'agentId')
      throw new OpenAiEndpointError(ErrorCode.NotFound, `The model \`agent:${turn.agentId}\` does not exist`, 'model_not_found', 'model');
    if (item.field === 'sessionKey') {
      const code = item.reason === 'agent_mismatch' ? 'session_agent_mismatch' : 'invalid_session_key';
      throw new OpenAiEndpointError(ErrorCode.BadRequest, err.detail, code, SESSION_KEY_HEADER);
    }
    throw err;
  }
}

/** A stream's last events: the finish chunk, the usage chunk when asked for, `[DONE]`; or the error OpenAI sends mid-stream. */
function streamEnd(ids: CompletionIds, turn: ChatTurn, result: ChannelAgentRunResult): PluginServerSentEvent[] {
  // What OpenAI sends when a stream fails after its start; client libraries raise it as an API error.
  if (result.status !== 'completed') return [{ data: openAiErrorOf(runError(result)).body }];
  return [
    { data: completionChunk(ids, {}, 'stop', turn.includeUsage) },
    ...(turn.includeUsage ? [{ data: usageChunk(ids, result) }] : []),
    { data: null, text: '[DONE]' },
  ];
}

/** A run that did not complete. The message reached the agent, so the answer also says not to retry (x-should-retry). */
function runError(run: ChannelAgentRunResult, headers: Record<string, string> = {}): OpenAiEndpointError {
  const reason = run.error ?? run.status;
  if (run.refusal) return new OpenAiEndpointError(ErrorCode.RateLimited, reason, 'budget_exhausted', null, headers);
  const aborted = run.status !== 'completed' && run.status !== 'failed';
  return new OpenAiEndpointError(
    aborted ? ErrorCode.Unavailable : ErrorCode.UpstreamFailed,
    `the agent's run ${run.status}: ${reason}`,
    aborted ? 'agent_run_aborted' : 'agent_run_failed',
    null,
    headers,
  );
}

/** The body as JSON: valid JSON (400), nested at most 64 levels (400). Any media type is read as JSON. */
function jsonBody(bytes: Buffer): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
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

function headerOf(request: PluginHttpRequest, name: string): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) throw invalidRequest(`${name} must be given once`, name, 'invalid_value');
  return value;
}
