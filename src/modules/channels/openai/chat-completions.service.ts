import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ConfigStore, type ChatCompletionsKey } from '../../config';
import { AgentRunner, type ReplyDeltaListener, type RunHandle } from '../../runtime';
import { canonicalSessionKey, directSessionKey, type DeliveryContext } from '../../sessions';
import type { ChatTurn } from './chat-request';
import { keyMayUse } from '../endpoint-keys/endpoint-keys';
import { OpenAiEndpointError } from './openai-errors';

/** The channel id of this endpoint: session keys `agent:<id>:openai:direct:<user>`, delivery contexts. */
export const OPENAI_CHANNEL_ID = 'openai';
/** The header that names a session, and the one that answers which session a request ran in. */
export const SESSION_KEY_HEADER = 'x-openclaw-session-key';
export const AGENT_ID_HEADER = 'x-openclaw-agent-id';

/** Where a request runs: the agent and the session. */
export interface ChatTarget {
  agentId: string;
  sessionKey: string;
}

/**
 * The chat completions channel: which agent and session a request reaches, and its run. The agent is the one the
 * request names (a key may use only its own agents); the session is the one `x-openclaw-session-key` names, else
 * the `user`'s direct session on this channel, else a new session for this request alone.
 */
@Injectable()
export class ChatCompletionsService {
  constructor(
    private readonly config: ConfigStore,
    @Inject(AgentRunner) private readonly runner: Pick<AgentRunner, 'startRun'>,
  ) {}

  /** 403 before 404: an agent outside the key's patterns is refused whether it exists or not. */
  target(key: ChatCompletionsKey, turn: ChatTurn, sessionHeader: string | undefined): ChatTarget {
    const { agentId } = turn;
    if (!keyMayUse(key, agentId)) {
      throw new OpenAiEndpointError(
        ErrorCode.Forbidden,
        `this key may not use the model \`agent:${agentId}\``,
        'model_not_allowed',
        'model',
      );
    }
    const snapshot = this.config.current();
    if (!snapshot.agentsById.has(agentId)) {
      throw new OpenAiEndpointError(ErrorCode.NotFound, `The model \`agent:${agentId}\` does not exist`, 'model_not_found', 'model');
    }
    return { agentId, sessionKey: this.sessionKeyFor(agentId, turn, sessionHeader) };
  }

  /** Starts the run; `onDelta` makes it stream (the runner's reply deltas). */
  start(key: ChatCompletionsKey, turn: ChatTurn, target: ChatTarget, onDelta?: ReplyDeltaListener): RunHandle {
    const deliveryContext: DeliveryContext = { channel: OPENAI_CHANNEL_ID, accountId: key.name, ...(turn.user ? { to: turn.user } : {}) };
    return this.runner.startRun({
      sessionKey: target.sessionKey,
      message: turn.text,
      create: { deliveryContext },
      meta: { channel: OPENAI_CHANNEL_ID, key: key.name, ...(turn.user ? { user: turn.user } : {}) },
      onReplyDelta: onDelta,
      origin: { channel: OPENAI_CHANNEL_ID, peer: key.name },
    });
  }

  private sessionKeyFor(agentId: string, turn: ChatTurn, sessionHeader: string | undefined): string {
    if (sessionHeader !== undefined) {
      let key: string;
      try {
        key = canonicalSessionKey(sessionHeader, SESSION_KEY_HEADER).key;
      } catch (err) {
        const detail = err instanceof AppError ? err.detail : `${SESSION_KEY_HEADER} is not a session key`;
        throw new OpenAiEndpointError(ErrorCode.BadRequest, detail, 'invalid_session_key', SESSION_KEY_HEADER);
      }
      const owner = canonicalSessionKey(key).agentId;
      if (owner !== agentId) {
        throw new OpenAiEndpointError(
          ErrorCode.BadRequest,
          `${SESSION_KEY_HEADER} names a session of agent "${owner}", not of agent "${agentId}"`,
          'session_agent_mismatch',
          SESSION_KEY_HEADER,
        );
      }
      return key;
    }
    const mainKey = this.config.current().config.session.mainKey;
    // Without a user the request is a conversation of its own: a fresh peer id nobody else can name.
    const peerId = turn.user ?? `request-${randomUUID()}`;
    return directSessionKey({ agentId, dmScope: 'per-channel-peer', mainKey, channel: OPENAI_CHANNEL_ID, accountId: '', peerId });
  }
}
