import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { ConfigStore, EndpointKey, ResolvedAgent } from '../config';
import { agentsForKey } from '../endpoint-keys';
import { agentList, agentOfTool, LIST_AGENTS_TOOL, parseAskArguments, toolsFor } from './agent-tools';
import type { AskAgentService } from './ask-agent.service';
import { mcpErrorOf } from './mcp-errors';

/** The gateway's name and version in the MCP handshake. */
export interface ServerIdentity {
  name: string;
  version: string;
}

/**
 * Who sent a request, as the endpoint attaches it (`authInfo.extra`): the key it authenticated, and the one agent
 * the request is narrowed to (the `x-openclaw-agent-id` header, which `clawgate mcp serve --agent` sends).
 */
export interface McpCaller {
  key: EndpointKey;
  onlyAgent?: string;
}

/** The authInfo the SDK hands to the request handlers; the token is never put there. */
export function authInfoFor(caller: McpCaller): AuthInfo {
  return { token: '', clientId: caller.key.name, scopes: [], extra: { caller } };
}

function callerOf(authInfo: AuthInfo | undefined): McpCaller {
  const caller = authInfo?.extra?.caller as McpCaller | undefined;
  // The endpoint attaches one to every request it hands over; without it the request did not come through it.
  if (!caller) throw new AppError(ErrorCode.Unauthenticated, 'the request has no authenticated key');
  return caller;
}

/**
 * The agents a caller may ask, read from the config at each request (keys and agents are hot): those the key's
 * patterns admit, narrowed to one when the request names it.
 */
export function agentsForCaller(config: ConfigStore, caller: McpCaller): ResolvedAgent[] {
  const agents = agentsForKey(caller.key, config.current().config.agents);
  return caller.onlyAgent === undefined ? agents : agents.filter((a) => a.id === caller.onlyAgent);
}

/**
 * The MCP server of one session: `tools/list` and `tools/call` over the agents its caller may ask. Each request
 * is answered for the key that sent it, so a key's new agent list applies to the next request.
 */
export function createSessionServer(identity: ServerIdentity, config: ConfigStore, asks: AskAgentService): Server {
  const server = new Server(identity, {
    capabilities: { tools: { listChanged: true } },
    instructions: 'Each ask_<agent> tool sends a message to one agent of this gateway and returns its reply; list_agents lists them.',
  });
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => ({
    tools: toolsFor(agentsForCaller(config, callerOf(extra.authInfo))),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    try {
      const caller = callerOf(extra.authInfo);
      const agents = agentsForCaller(config, caller);
      const { name } = request.params;
      if (name === LIST_AGENTS_TOOL) {
        parseNoArguments(request.params.arguments);
        const structured = agentList(agents);
        return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
      }
      const agentId = agentOfTool(name);
      // An agent outside the key is not listed, and calling it answers exactly as a tool that does not exist.
      if (agentId === undefined || !agents.some((a) => a.id === agentId)) {
        throw new AppError(
          ErrorCode.InvalidParams,
          `unknown tool ${JSON.stringify(name.slice(0, 200))}: tools/list shows the tools this key may call`,
        );
      }
      const args = parseAskArguments(request.params.arguments);
      const progressToken = extra._meta?.progressToken;
      const onText =
        progressToken === undefined
          ? undefined
          : (text: string, soFar: number) => {
              const progress: ServerNotification = {
                method: 'notifications/progress',
                params: { progressToken, progress: soFar, message: text },
              };
              // A client gone mid-stream loses its progress, not the run: the reply still lands in the session.
              extra.sendNotification(progress).catch(() => undefined);
            };
      const { run, contextId } = await asks.ask({ key: caller.key, agentId, args, onText, signal: extra.signal });
      if (run.status !== 'completed') {
        const reason = run.error ?? run.status;
        return { content: [{ type: 'text', text: `the agent's run ${run.status}: ${reason}` }], isError: true };
      }
      const reply = run.reply ?? '';
      return {
        content: [{ type: 'text', text: reply }],
        structuredContent: { reply, contextId, agentId, runId: run.runId },
      };
    } catch (err) {
      if (err instanceof AppError) throw mcpErrorOf(err);
      throw err;
    }
  });
  return server;
}

function parseNoArguments(raw: unknown): void {
  if (raw === undefined || raw === null) return;
  if (typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length > 0) {
    throw new AppError(ErrorCode.InvalidParams, 'list_agents takes no arguments');
  }
}
