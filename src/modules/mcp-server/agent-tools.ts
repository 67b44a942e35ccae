import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { isRecord } from '../../common/is-record';
import type { ResolvedAgent } from '../config';

/** `ask_<agent id>`: agent ids are `[a-z0-9][a-z0-9_-]{0,63}`, within MCP's tool-name alphabet. */
export const ASK_TOOL_PREFIX = 'ask_';
export const LIST_AGENTS_TOOL = 'list_agents';
/** The message is 1–65536 characters, as for the http channel and the OpenAI-compatible endpoint. */
export const MAX_MESSAGE_CHARS = 65_536;
/** A contextId names a conversation of the key: a segment of a session key, so a restricted alphabet. */
export const CONTEXT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** What a call of `ask_<agent>` asks. */
export interface AskArguments {
  message: string;
  contextId?: string;
}

/** The agent a tool name asks, or undefined for a name that is not `ask_<id>`. */
export function agentOfTool(name: string): string | undefined {
  return name.startsWith(ASK_TOOL_PREFIX) ? name.slice(ASK_TOOL_PREFIX.length) : undefined;
}

/** The tools a caller sees: `list_agents`, then `ask_<id>` for each agent it may reach, in config order. */
export function toolsFor(agents: readonly ResolvedAgent[]): Tool[] {
  return [listAgentsTool(), ...agents.map(askTool)];
}

function askTool(agent: ResolvedAgent): Tool {
  const who = agent.identity.name ?? agent.name ?? agent.id;
  return {
    name: `${ASK_TOOL_PREFIX}${agent.id}`,
    title: `Ask ${who}`,
    description:
      `Send a message to the agent "${agent.id}" (${who}) and get its reply.` +
      (agent.description ? ` ${agent.description}` : '') +
      ' Pass the contextId of an earlier reply to continue that conversation; without one a new conversation starts.',
    inputSchema: {
      type: 'object',
      properties: {
        message: { type: 'string', minLength: 1, maxLength: MAX_MESSAGE_CHARS, description: 'What to say to the agent.' },
        contextId: {
          type: 'string',
          pattern: CONTEXT_ID_PATTERN.source,
          description: 'The conversation to continue (the contextId of an earlier reply).',
        },
      },
      required: ['message'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        reply: { type: 'string', description: "The agent's reply." },
        contextId: { type: 'string', description: 'Pass it to the next call to continue this conversation.' },
        agentId: { type: 'string' },
        runId: { type: 'string', description: "The gateway's run id (its logs, traces and transcript name it)." },
      },
      required: ['reply', 'contextId', 'agentId', 'runId'],
    },
  };
}

function listAgentsTool(): Tool {
  return {
    name: LIST_AGENTS_TOOL,
    title: 'List the agents',
    description: 'The agents this key may ask, each with the tool that asks it.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      properties: {
        agents: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, tool: { type: 'string' } },
            required: ['id', 'tool'],
          },
        },
      },
      required: ['agents'],
    },
  };
}

/** `list_agents`' structured result. */
export function agentList(agents: readonly ResolvedAgent[]): { agents: Array<Record<string, string>> } {
  return {
    agents: agents.map((a) => {
      const name = a.identity.name ?? a.name;
      return {
        id: a.id,
        ...(name ? { name } : {}),
        ...(a.description ? { description: a.description } : {}),
        tool: `${ASK_TOOL_PREFIX}${a.id}`,
      };
    }),
  };
}

/** Checks the arguments of `ask_<agent>` field by field; each refusal names the field (InvalidParams, -32602). */
export function parseAskArguments(raw: unknown): AskArguments {
  const args = raw ?? {};
  if (!isRecord(args)) throw invalidParams('arguments must be an object: {"message": "…", "contextId"?: "…"}');
  for (const key of Object.keys(args)) {
    if (key !== 'message' && key !== 'contextId') throw invalidParams(`arguments.${key}: unknown argument (message, contextId)`);
  }
  const { message, contextId } = args;
  if (message === undefined) throw invalidParams('arguments.message is required: the text to send to the agent');
  if (typeof message !== 'string') throw invalidParams(`arguments.message must be a string, not ${typeName(message)}`);
  if (!message.trim()) throw invalidParams('arguments.message is empty');
  if (message.length > MAX_MESSAGE_CHARS) throw invalidParams(`arguments.message is longer than ${MAX_MESSAGE_CHARS} characters`);
  if (contextId === undefined || contextId === null) return { message };
  if (typeof contextId !== 'string') throw invalidParams(`arguments.contextId must be a string, not ${typeName(contextId)}`);
  if (!CONTEXT_ID_PATTERN.test(contextId)) {
    throw invalidParams(`arguments.contextId must match ${CONTEXT_ID_PATTERN.source} (the contextId of an earlier reply)`);
  }
  return { message, contextId };
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function invalidParams(detail: string): AppError {
  return new AppError(ErrorCode.InvalidParams, detail);
}
