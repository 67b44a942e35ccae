import { randomUUID } from 'node:crypto';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import type { ChannelAgentRun, ChannelAgentRunResult, ChannelAgentTurn } from '../../../plugin-sdk';
import type { ConfigStore } from '../../config';
import type { AgentRunner, RunRecord } from '../../runtime';
import { canonicalSessionKey, directSessionKey, type DeliveryContext } from '../../sessions';

/**
 * `ChannelContext.runTurn` (docs/plugins.md#agent-turns): a turn for the agent an `accounts` channel's caller named,
 * without the bindings. The agent must be configured (404) and a given session key must be one of it (400); without a
 * key the session is the peer's direct session on the channel (`per-channel-peer`), else a session of this turn alone.
 * The session's return address is the channel and the account, so announces come back through the channel's `send`.
 */
export class ChannelTurns {
  constructor(
    private readonly config: Pick<ConfigStore, 'current'>,
    private readonly runner: Pick<AgentRunner, 'startRun'>,
  ) {}

  run(channel: string, turn: ChannelAgentTurn): ChannelAgentRun {
    const { agentId, accountId } = turn;
    if (!this.config.current().agentsById.has(agentId)) {
      throw new AppError(ErrorCode.NotFound, `agent "${agentId}" is not configured`, [{ field: 'agentId' }]);
    }
    const sessionKey = this.sessionKeyOf(channel, turn);
    const peer = turn.peerId;
    const deliveryContext: DeliveryContext = { channel, accountId, ...(peer ? { to: peer } : {}) };
    const handle = this.runner.startRun({
      sessionKey,
      message: turn.text,
      create: { deliveryContext },
      meta: { channel, ...turn.meta },
      onReplyDelta: turn.onReplyDelta && ((delta) => turn.onReplyDelta!({ round: delta.round, text: delta.text })),
      origin: { channel, peer: accountId },
    });
    return { runId: handle.runId, agentId, sessionKey, done: handle.done.then(resultOf) };
  }

  private sessionKeyOf(channel: string, turn: ChannelAgentTurn): string {
    const { agentId } = turn;
    if (turn.sessionKey !== undefined) {
      const label = turn.sessionKeyLabel ?? 'sessionKey';
      let key: string;
      try {
        key = canonicalSessionKey(turn.sessionKey, label).key;
      } catch (err) {
        const detail = err instanceof AppError ? err.detail : `${label} is not a session key`;
        throw new AppError(ErrorCode.BadRequest, detail, [{ field: 'sessionKey', reason: 'invalid' }]);
      }
      const owner = canonicalSessionKey(key).agentId;
      if (owner !== agentId) {
        throw new AppError(ErrorCode.BadRequest, `${label} names a session of agent "${owner}", not of agent "${agentId}"`, [
          { field: 'sessionKey', reason: 'agent_mismatch' },
        ]);
      }
      return key;
    }
    const mainKey = this.config.current().config.session.mainKey;
    // Without a peer the turn is a conversation of its own: a fresh peer id nobody else can name.
    const peerId = turn.peerId ?? `request-${randomUUID()}`;
    return directSessionKey({ agentId, dmScope: 'per-channel-peer', mainKey, channel, accountId: '', peerId });
  }
}

function resultOf(run: RunRecord): ChannelAgentRunResult {
  return {
    status: run.status,
    ...(run.reply !== undefined ? { reply: run.reply } : {}),
    ...(run.error !== undefined ? { error: run.error } : {}),
    usage: { inputTokens: run.usage?.inputTokens ?? 0, outputTokens: run.usage?.outputTokens ?? 0 },
    ...(run.refusal
      ? { refusal: run.refusal.retryAfterSeconds !== undefined ? { retryAfterSeconds: run.refusal.retryAfterSeconds } : {} }
      : {}),
  };
}
