import { isCanonicalAgentId } from '../../common/agent-id';
import { isRecord } from '../../common/is-record';
import { ErrorCode } from '../../plugin-sdk';
import { invalidRequest, OpenAiEndpointError } from './openai-errors';

/** `model: "agent:<id>"` names the agent (docs/openai-endpoint.md#choosing-the-agent). */
export const AGENT_MODEL_PREFIX = 'agent:';
/** The inbound message, like an http channel message, is 1–65536 characters. */
export const MAX_MESSAGE_CHARS = 65_536;
/** `user` becomes the peer id of a session key. */
export const MAX_USER_CHARS = 256;

/** What a chat completion request asks of an agent. */
export interface ChatTurn {
  agentId: string;
  /** The text of the last user message: the inbound message of the run. */
  text: string;
  stream: boolean;
  /** `stream_options.include_usage`: a last chunk with the usage. */
  includeUsage: boolean;
  user?: string;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/**
 * OpenAI parameters the endpoint accepts and does not use: the agent's model settings decide sampling and
 * length. Each is type-checked, so a client that sends nonsense hears about it.
 */
const IGNORED: Readonly<Record<string, (v: unknown) => boolean>> = {
  temperature: isNumber,
  top_p: isNumber,
  max_tokens: isNumber,
  max_completion_tokens: isNumber,
  presence_penalty: isNumber,
  frequency_penalty: isNumber,
  seed: isNumber,
  stop: (v) => typeof v === 'string' || (Array.isArray(v) && v.every((s) => typeof s === 'string')),
  logit_bias: isRecord,
  metadata: isRecord,
  store: (v) => typeof v === 'boolean',
  parallel_tool_calls: (v) => typeof v === 'boolean',
  service_tier: (v) => typeof v === 'string',
  reasoning_effort: (v) => typeof v === 'string',
  logprobs: (v) => v === false,
  n: (v) => v === 1,
  response_format: (v) => isRecord(v) && v.type === 'text',
};

/** Parameters a client may send that this endpoint cannot honour: refused rather than silently dropped. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  tools: "tools from the request are not supported: the agent's own tools are used",
  tool_choice: "tool_choice is not supported: the agent's own tools are used",
  functions: "functions are not supported: the agent's own tools are used",
  function_call: "function_call is not supported: the agent's own tools are used",
  audio: 'audio output is not supported',
  modalities: 'only text output is supported',
  prediction: 'predicted outputs are not supported',
  top_logprobs: 'logprobs are not supported',
  web_search_options: 'web search is not supported',
};

/**
 * Checks a parsed request body and takes out what the run needs. `headerAgent` is `x-openclaw-agent-id`.
 * Every refusal names the field (`param`) the way OpenAI's API does.
 */
export function parseChatRequest(body: unknown, headerAgent: string | undefined): ChatTurn {
  if (!isRecord(body)) throw invalidRequest('the request body must be a JSON object', null, 'invalid_request_body');
  for (const key of Object.keys(body)) {
    if (key === 'model' || key === 'messages' || key === 'stream' || key === 'stream_options' || key === 'user') continue;
    if (Object.hasOwn(UNSUPPORTED, key)) throw invalidRequest(UNSUPPORTED[key], key, 'unsupported_parameter');
    if (!Object.hasOwn(IGNORED, key)) throw invalidRequest(`Unrecognized request argument supplied: ${key}`, key, 'unknown_parameter');
    if (body[key] !== null && !IGNORED[key](body[key])) throw invalidRequest(`${key} has an invalid value`, key, 'invalid_value');
  }
  const agentId = agentOf(body.model, headerAgent);
  const text = lastUserText(body.messages);
  const stream = optionalBoolean(body.stream, 'stream') ?? false;
  const includeUsage = streamOptions(body.stream_options, stream);
  const user = userOf(body.user);
  return { agentId, text, stream, includeUsage, ...(user !== undefined ? { user } : {}) };
}

function agentOf(model: unknown, headerAgent: string | undefined): string {
  if (model === undefined || model === null) {
    throw invalidRequest('you must provide a model parameter ("agent:<agent id>")', 'model', 'missing_required_parameter');
  }
  if (typeof model !== 'string' || !model.trim()) throw invalidRequest('model must be a non-empty string', 'model', 'invalid_type');
  const header = headerAgent === undefined ? undefined : agentIdFrom(headerAgent, 'x-openclaw-agent-id');
  if (!model.startsWith(AGENT_MODEL_PREFIX)) {
    if (header) return header; // clients that insist on a model name of their own pick the agent by header
    throw new OpenAiEndpointError(
      ErrorCode.NotFound,
      `The model \`${model.slice(0, 200)}\` does not exist: use "agent:<agent id>" (GET /v1/models lists the agents this key may use) or the x-openclaw-agent-id header`,
      'model_not_found',
      'model',
    );
  }
  const fromModel = agentIdFrom(model.slice(AGENT_MODEL_PREFIX.length), 'model');
  if (header && header !== fromModel) {
    throw invalidRequest(`model names agent "${fromModel}" but x-openclaw-agent-id names "${header}"`, 'model', 'agent_mismatch');
  }
  return fromModel;
}

function agentIdFrom(raw: string, param: string): string {
  const id = raw.trim().toLowerCase();
  if (!isCanonicalAgentId(id)) {
    throw invalidRequest(
      `${param}: ${JSON.stringify(raw.slice(0, 100))} is not an agent id ([a-z0-9][a-z0-9_-]{0,63})`,
      param,
      'invalid_value',
    );
  }
  return id;
}

/**
 * The last user message is the inbound message; earlier messages are not replayed, because the session's own
 * transcript is the history the agent sees (docs/openai-endpoint.md#messages-and-sessions).
 */
function lastUserText(messages: unknown): string {
  if (messages === undefined) throw invalidRequest("'messages' is a required property", 'messages', 'missing_required_parameter');
  if (!Array.isArray(messages) || messages.length === 0)
    throw invalidRequest("'messages' must be a non-empty array", 'messages', 'invalid_type');
  let last: string | undefined;
  messages.forEach((m: unknown, i) => {
    if (!isRecord(m)) throw invalidRequest(`messages[${i}] must be an object`, `messages[${i}]`, 'invalid_type');
    if (typeof m.role !== 'string' || !ROLES.has(m.role)) {
      throw invalidRequest(`messages[${i}].role must be one of ${[...ROLES].join(', ')}`, `messages[${i}].role`, 'invalid_value');
    }
    if (m.role === 'user') last = userContent(m.content, i);
  });
  if (last === undefined) throw invalidRequest('messages must contain a user message', 'messages', 'invalid_value');
  if (!last.trim()) throw invalidRequest('the last user message is empty', 'messages', 'invalid_value');
  if (last.length > MAX_MESSAGE_CHARS) {
    throw invalidRequest(`the last user message is longer than ${MAX_MESSAGE_CHARS} characters`, 'messages', 'string_above_max_length');
  }
  return last;
}

/** A user message's content: a string, or text parts joined by newlines. Other parts (images, audio, files) are refused. */
function userContent(content: unknown, i: number): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) {
    throw invalidRequest(`messages[${i}].content must be a string or an array of text parts`, `messages[${i}].content`, 'invalid_type');
  }
  return content
    .map((part: unknown, j) => {
      const at = `messages[${i}].content[${j}]`;
      if (!isRecord(part)) throw invalidRequest(`${at} must be an object`, at, 'invalid_type');
      if (part.type !== 'text') {
        throw invalidRequest(
          `${at}.type: only text content is supported (got ${JSON.stringify(part.type)})`,
          `${at}.type`,
          'unsupported_value',
        );
      }
      if (typeof part.text !== 'string') throw invalidRequest(`${at}.text must be a string`, `${at}.text`, 'invalid_type');
      return part.text;
    })
    .join('\n');
}

function streamOptions(raw: unknown, stream: boolean): boolean {
  if (raw === undefined || raw === null) return false;
  if (!stream) {
    throw invalidRequest("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options', 'invalid_value');
  }
  if (!isRecord(raw)) throw invalidRequest('stream_options must be an object', 'stream_options', 'invalid_type');
  for (const key of Object.keys(raw)) {
    if (key !== 'include_usage' && key !== 'include_obfuscation') {
      throw invalidRequest(`Unrecognized request argument supplied: stream_options.${key}`, `stream_options.${key}`, 'unknown_parameter');
    }
  }
  optionalBoolean(raw.include_obfuscation, 'stream_options.include_obfuscation');
  return optionalBoolean(raw.include_usage, 'stream_options.include_usage') ?? false;
}

function userOf(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (typeof raw !== 'string' || !raw.trim() || raw.length > MAX_USER_CHARS || /[\u0000-\u001f\u007f]/.test(raw)) {
    throw invalidRequest(`user must be a string of 1–${MAX_USER_CHARS} printable characters`, 'user', 'invalid_value');
  }
  return raw.trim();
}

function optionalBoolean(raw: unknown, param: string): boolean | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'boolean') throw invalidRequest(`${param} must be a boolean`, param, 'invalid_type');
  return raw;
}

function isNumber(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v);
}
