/**
 * A model provider a plugin registers (`api.registerProvider`): the gateway's model port as a plugin sees it. Like
 * the rest of the SDK it imports nothing of the gateway, so these types mirror the runtime's own (messages, tool
 * calls, tool specs, streamed text pieces) rather than re-export them.
 */

import type { PluginLogger } from './plugin-logger';

/** A tool call the model asked for; `arguments` is the parsed JSON object. */
export interface PluginToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One message of the conversation, oldest first: the user's, the model's (with its tool calls), a tool's result. */
export type PluginChatMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls?: PluginToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; text: string };

/** A tool the model may call; `parameters` is the JSON Schema of its arguments object. */
export interface PluginToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface PluginChatRequest {
  /** The part after `<provider>/` of the agent's model reference. */
  model: string;
  system: string;
  messages: PluginChatMessage[];
  tools: PluginToolSpec[];
  /** Whether the caller takes the reply as it is written: then report its pieces through `ctx.onTextDelta`. */
  stream: boolean;
}

export interface PluginChatContext {
  agentId: string;
  /** Aborted when the run is (a cancel, the model call's timeout, the gateway stopping): stop on it. */
  signal: AbortSignal;
  logger: PluginLogger;
  /**
   * Reports a piece of answer text as it is written (only when `request.stream`; otherwise it does nothing). The
   * pieces, in order, must concatenate to the answer's `text`.
   */
  onTextDelta(text: string): void;
}

export interface PluginChatResponse {
  text: string;
  toolCalls?: PluginToolCall[];
  usage?: { inputTokens?: number; outputTokens?: number };
}

/**
 * A model API. Its id must be in the manifest's `contracts.providers` and not a built-in provider's name or api
 * kind; agents address it as the model reference `<id>/<model>`. What `chat` throws fails the model call: the run
 * goes on to its next fallback model, as for an HTTP provider that is down.
 */
export interface PluginModelProvider {
  id: string;
  chat(request: PluginChatRequest, ctx: PluginChatContext): Promise<PluginChatResponse> | PluginChatResponse;
}
