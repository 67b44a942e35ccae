import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigStore, type EndpointKey } from '../config';
import { AgentRunner, type RunRecord } from '../runtime';
import { directSessionKey, type DeliveryContext } from '../sessions';
import type { AskArguments } from './agent-tools';

/** The channel id of the MCP server: session keys `agent:<id>:mcp:direct:<key>:<contextId>`, delivery contexts. */
export const MCP_CHANNEL_ID = 'mcp';
/** The reason a run cancelled by its MCP client ends with (its record's `error`). */
export const RUN_CANCELED_BY_MCP_CLIENT = 'Run canceled by the MCP client (notifications/cancelled)';

/** The session's peer id of one key's conversation: the key name, then the contextId, split at the first ":". */
export function mcpPeerId(keyName: string, contextId: string): string {
  return `${keyName}:${contextId}`;
}

/** A call of `ask_<agent>`: the agent, the caller's key, and how the caller follows it. */
export interface AskCall {
  key: EndpointKey;
  agentId: string;
  args: AskArguments;
  /** Each piece of the reply as the model writes it, with the reply so far (for progress notifications). */
  onText?: (text: string, soFar: number) => void;
  /** The request's signal: aborted by `notifications/cancelled` (or the session's end). */
  signal: AbortSignal;
}

export interface AskOutcome {
  run: RunRecord;
  contextId: string;
}

/**
 * Runs `ask_<agent>`: the message goes to a session of the agent on the `mcp` channel, one per key and
 * contextId (so a key can continue only its own conversations), and runs like any channel's message. A cancelled
 * request aborts the run, and what the run started with it (the runtime's abort cascade).
 */
@Injectable()
export class AskAgentService {
  constructor(
    private readonly config: ConfigStore,
    @Inject(AgentRunner) private readonly runner: Pick<AgentRunner, 'startRun' | 'abortRun'>,
  ) {}

  async ask(call: AskCall): Promise<AskOutcome> {
    const { key, agentId, args } = call;
    // A new conversation's id nobody can guess.
    const contextId = args.contextId ?? randomUUID();
    const sessionKey = directSessionKey({
      agentId,
      dmScope: 'per-channel-peer',
      mainKey: this.config.current().config.session.mainKey,
      channel: MCP_CHANNEL_ID,
      accountId: '',
      // The key's name first: another key that learns a contextId still cannot reach this conversation. Key names
      // cannot hold ":" while context ids may hold ".", so only ":" keeps `team` + `b.x` apart from `team.b` + `x`.
      peerId: mcpPeerId(key.name, contextId),
    });
    const deliveryContext: DeliveryContext = { channel: MCP_CHANNEL_ID, accountId: key.name, to: contextId };
    let soFar = 0;
    let round = -1;
    const handle = this.runner.startRun({
      sessionKey,
      message: args.message,
      create: { deliveryContext },
      meta: { channel: MCP_CHANNEL_ID, key: key.name, contextId },
      origin: { channel: MCP_CHANNEL_ID, peer: key.name },
      ...(call.onText
        ? {
            onReplyDelta: (delta) => {
              // Text written before a tool call is followed by a blank line, as the OpenAI-compatible stream does.
              const text = delta.round !== round && soFar > 0 ? `\n\n${delta.text}` : delta.text;
              round = delta.round;
              soFar += text.length;
              call.onText?.(text, soFar);
            },
          }
        : {}),
    });
    const abort = () => this.runner.abortRun(handle.runId, RUN_CANCELED_BY_MCP_CLIENT);
    if (call.signal.aborted) abort();
    else call.signal.addEventListener('abort', abort, { once: true });
    try {
      return { run: await handle.done, contextId };
    } finally {
      call.signal.removeEventListener('abort', abort);
    }
  }
}
