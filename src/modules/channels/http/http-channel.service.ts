import { Inject, Injectable } from '@nestjs/common';
import { RoutingService } from '../../routing';
import { AgentRunner, isTerminalRunStatus, type ReplyDeltaListener, type RunRecord } from '../../runtime';
import type { DeliveryContext } from '../../sessions';
import type { HttpInboundMessageDto, HttpRunAcceptedDto, HttpRunResultDto } from './dto/http-message.dto';
import { HTTP_CHANNEL_ID } from './http-channel.adapter';

/** Longest `wait: true` wait (docs/channels.md#sending-a-message); same order as the A2A reply timeout [120 s]. */
export const HTTP_REPLY_WAIT_MS = 120_000;

export type InboundOutcome = { status: 200; body: HttpRunResultDto } | { status: 202; body: HttpRunAcceptedDto };

/** A run started for a streamed reply: who runs it, and its result once it is over. */
export interface StreamedRun {
  runId: string;
  sessionKey: string;
  agentId: string;
  /** Settles when the run is over (completed, failed or aborted); never rejects. */
  result: Promise<HttpRunResultDto>;
}

/** Inbound side of the http channel: route an authenticated message, run it, and (by default) wait for the reply. */
@Injectable()
export class HttpChannelService {
  constructor(
    private readonly routing: RoutingService,
    // Typed to what it uses (start a run, follow it), so the channel can run over a stand-in runner.
    @Inject(AgentRunner) private readonly runner: Pick<AgentRunner, 'startRun' | 'waitForRun'>,
  ) {}

  async receive(accountId: string, message: HttpInboundMessageDto, waitMs = HTTP_REPLY_WAIT_MS): Promise<InboundOutcome> {
    const { runId, sessionKey, agentId } = this.start(accountId, message);
    if (message.wait === false) return { status: 202, body: { runId, sessionKey } };

    const run = await this.runner.waitForRun(runId, waitMs);
    if (!isTerminalRunStatus(run.status)) {
      // Not cancelled: the run goes on and its reply still lands in the session.
      return { status: 202, body: { runId, sessionKey, status: 'running' } };
    }
    return { status: 200, body: resultOf(run, sessionKey, agentId) };
  }

  /**
   * `stream: true`: starts the run with `onDelta` receiving the reply as it is written, and hands back the run's
   * result for when it is over. There is no wait limit: the caller's connection is the wait.
   */
  stream(accountId: string, message: HttpInboundMessageDto, onDelta: ReplyDeltaListener): StreamedRun {
    const { runId, sessionKey, agentId, done } = this.start(accountId, message, onDelta);
    return { runId, sessionKey, agentId, result: done.then((run) => resultOf(run, sessionKey, agentId)) };
  }

  private start(accountId: string, message: HttpInboundMessageDto, onReplyDelta?: ReplyDeltaListener) {
    const peer = { kind: message.peer.kind, id: message.peer.id };
    const threadId = message.threadId ?? undefined;
    const route = this.routing.resolve({ channel: HTTP_CHANNEL_ID, accountId, peer, threadId });
    // The conversation's return address: announce results and agent-initiated messages go back here.
    const deliveryContext: DeliveryContext = { channel: HTTP_CHANNEL_ID, accountId, to: peer.id, ...(threadId ? { threadId } : {}) };
    const { runId, done } = this.runner.startRun({
      sessionKey: route.sessionKey,
      message: message.text,
      create: { deliveryContext },
      meta: { channel: HTTP_CHANNEL_ID, accountId, peer },
      onReplyDelta,
      origin: { channel: HTTP_CHANNEL_ID, peer: `${accountId}/${peer.id}`, account: accountId },
    });
    return { runId, done, sessionKey: route.sessionKey, agentId: route.agentId };
  }
}

/**
 * A failed run is still a processed request: status "failed" and the reason, like an A2A task that ends FAILED.
 * A 5xx would tell the integrator to retry a message the agent has already seen.
 */
function resultOf(run: RunRecord, sessionKey: string, agentId: string): HttpRunResultDto {
  const body: HttpRunResultDto = { runId: run.runId, sessionKey, agentId, status: run.status as HttpRunResultDto['status'] };
  if (run.status === 'completed') body.reply = run.reply ?? '';
  else body.error = run.error ?? run.status;
  return body;
}
