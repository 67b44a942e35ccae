import type { ChannelAgentRunResult } from '../../plugin-sdk';
import { AGENT_MODEL_PREFIX } from './chat-request';

/**
 * The response objects of the OpenAI Chat Completions API, as this endpoint fills them: `chat.completion`,
 * `chat.completion.chunk`, the usage object, and the `model` list of GET /v1/models.
 */

export interface CompletionIds {
  /** `chatcmpl-<runId>`: one id for every chunk of a stream, and the run it came from. */
  id: string;
  /** Unix seconds when the request was taken. */
  created: number;
  /** `agent:<id>`. */
  model: string;
}

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function completionIds(runId: string, agentId: string): CompletionIds {
  return { id: `chatcmpl-${runId}`, created: Math.floor(Date.now() / 1000), model: `${AGENT_MODEL_PREFIX}${agentId}` };
}

/** The run's token usage (all its model calls) in OpenAI's names; a model that reports none (echo) counts 0. */
export function usageOf(run: ChannelAgentRunResult): OpenAiUsage {
  const prompt = run.usage.inputTokens;
  const completion = run.usage.outputTokens;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function chatCompletion(ids: CompletionIds, run: ChannelAgentRunResult) {
  return {
    id: ids.id,
    object: 'chat.completion',
    created: ids.created,
    model: ids.model,
    choices: [{ index: 0, message: { role: 'assistant', content: run.reply ?? '', refusal: null }, finish_reason: 'stop', logprobs: null }],
    usage: usageOf(run),
  };
}

/**
 * One streamed chunk. With `include_usage` every chunk carries `usage: null` and the last one (no choices) the
 * usage, as OpenAI streams it.
 */
export function completionChunk(ids: CompletionIds, delta: Record<string, unknown>, finishReason: string | null, includeUsage: boolean) {
  return {
    id: ids.id,
    object: 'chat.completion.chunk',
    created: ids.created,
    model: ids.model,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    ...(includeUsage ? { usage: null } : {}),
  };
}

export function usageChunk(ids: CompletionIds, run: ChannelAgentRunResult) {
  return { id: ids.id, object: 'chat.completion.chunk', created: ids.created, model: ids.model, choices: [], usage: usageOf(run) };
}

export function modelObject(agentId: string, created: number) {
  return { id: `${AGENT_MODEL_PREFIX}${agentId}`, object: 'model', created, owned_by: 'clawgate' };
}
