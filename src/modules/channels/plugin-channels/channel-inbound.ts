import type { ChannelInboundMessage, ChannelInboundOutcome } from '../../../plugin-sdk';
import { RoutingService } from '../../routing';
import type { AgentRunner, RunRecord } from '../../runtime';
import type { DeliveryContext } from '../../sessions';
import type { PairingStore } from '../pairing/pairing-store.port';
import { accessOf, accountDisabled, decideAccess } from './channel-access';
import { mediaMaxMb, withInboundFiles } from './inbound-files';
import { inboundProblem, routingInbound } from './inbound-message';
import { ReplyStream } from './reply-stream';

/** What the pipeline tells the channel's bookkeeping: a message came in, and what became of it. */
export interface InboundObserver {
  received(accountId: string): void;
  outcome(accountId: string, outcome: ChannelInboundOutcome['kind'], reason?: string): void;
  /** The reply was handed to the channel (`final`), or the run failed. */
  replied(accountId: string, ok: boolean): void;
}

/**
 * The one way into the gateway for every chat channel (docs/channels.md#chat-channels), the same steps whatever
 * the platform: the message's shape checked → bots dropped → the DM or group policy (pairing, allowlists, mention
 * gating) → routing through the bindings (the resolver `/admin/routing/resolve` asks) → the session key of the
 * existing scheme → the message's files fetched and stored within `mediaMaxMb` (inbound-files.ts) → the run, its
 * reply streamed back as `progress` then `final` (or `failed`). The run's start fires the `message_received` hook.
 */
export class ChannelInbound {
  constructor(
    private readonly routing: RoutingService,
    private readonly runner: Pick<AgentRunner, 'startRun'>,
    private readonly pairing: PairingStore,
    /** Where the files of messages are stored (`agents/<agentId>/attachments/…`). */
    private readonly stateDir: string,
    /** An approval command (`/approve <id>`) is taken here, before any policy or agent sees it (chat-approvals.ts). */
    private readonly approvalCommand?: (channel: string, message: ChannelInboundMessage) => Promise<ChannelInboundOutcome | undefined>,
  ) {}

  /** `access`: the channel's (`accounts`: its callers are accounts it authenticated, so the policies do not apply). */
  async handle(
    channel: string,
    section: Record<string, unknown>,
    message: ChannelInboundMessage,
    observer: InboundObserver,
    access: 'policy' | 'accounts' = 'policy',
  ): Promise<ChannelInboundOutcome> {
    const problem = inboundProblem(message);
    if (problem) throw new TypeError(`inbound(message): ${problem}`);
    observer.received(message.accountId);
    const command = access === 'policy' ? await this.approvalCommand?.(channel, message) : undefined;
    const outcome =
      command ??
      (access === 'accounts'
        ? await this.run(channel, section, message, observer)
        : await this.decide(channel, section, message, observer));
    observer.outcome(message.accountId, outcome.kind, outcome.kind === 'ignored' ? outcome.reason : undefined);
    return outcome;
  }

  private async decide(
    channel: string,
    section: Record<string, unknown>,
    message: ChannelInboundMessage,
    observer: InboundObserver,
  ): Promise<ChannelInboundOutcome> {
    if (accountDisabled(section, message.accountId)) return { kind: 'ignored', reason: `account ${message.accountId} is disabled` };
    const access = accessOf(section, message.accountId);
    const decision = await decideAccess(access, message, () => this.pairing.isApproved(channel, message.accountId, message.sender.id));
    if (decision.kind === 'ignored') return decision;
    if (decision.kind === 'pair') return this.pair(channel, section, message, observer);
    return this.run(channel, section, message, observer);
  }

  private async pair(
    channel: string,
    section: Record<string, unknown>,
    message: ChannelInboundMessage,
    observer: InboundObserver,
  ): Promise<ChannelInboundOutcome> {
    const name = message.sender.name ?? message.sender.username;
    const asked = await this.pairing.ask(channel, message.accountId, { id: message.sender.id, ...(name ? { name } : {}) });
    if (asked.kind === 'approved') return this.run(channel, section, message, observer);
    if (asked.kind === 'full') {
      return { kind: 'ignored', reason: `pairing: ${asked.pending} codes of channel ${channel} are already waiting for approval` };
    }
    const { code } = asked.request;
    return {
      kind: 'pairing',
      text:
        `This assistant does not know you yet. Your pairing code is ${code}. Ask its operator to approve it ` +
        `(clawgate pairing approve ${channel} ${code}); the code is valid for one hour.`,
    };
  }

  private async run(
    channel: string,
    section: Record<string, unknown>,
    message: ChannelInboundMessage,
    observer: InboundObserver,
  ): Promise<ChannelInboundOutcome> {
    const inbound = routingInbound(channel, message);
    const route = this.routing.resolve(inbound);
    let text = message.text;
    let attachments: unknown;
    if (message.files?.length) {
      const files = await withInboundFiles(
        this.stateDir,
        route.agentId,
        channel,
        text,
        message.files,
        mediaMaxMb(section, message.accountId),
      );
      if (files.kind === 'refused') return files;
      ({ text, attachments } = files);
    }
    const threadId = message.threadId || undefined;
    // The conversation's return address: announces and sessions_send results come back through the channel's send.
    const deliveryContext: DeliveryContext = {
      channel,
      accountId: message.accountId,
      to: message.peer.id,
      ...(threadId ? { threadId } : {}),
    };
    const stream = new ReplyStream();
    let round = -1;
    let reply = '';
    const onDelta = message.onReplyDelta;
    const { runId, done } = this.runner.startRun({
      sessionKey: route.sessionKey,
      message: text,
      create: { deliveryContext },
      meta: {
        channel,
        accountId: message.accountId,
        peer: inbound.peer,
        messageId: message.messageId,
        sender: message.sender.id,
        ...(attachments ? { attachments } : {}),
      },
      // The reply of the last round is the answer: a new round (after tool calls) starts the text over.
      onReplyDelta: (delta) => {
        if (onDelta) {
          try {
            onDelta({ round: delta.round, text: delta.text });
          } catch {
            // The channel's listener is its own business: the run and the other events go on.
          }
        }
        if (delta.round !== round) {
          round = delta.round;
          reply = '';
        }
        reply += delta.text;
        stream.progress(reply);
      },
      origin: { channel, peer: `${message.accountId}/${message.peer.id}`, account: message.accountId },
    });
    void done.then((run: RunRecord) => {
      if (run.status === 'completed') stream.end({ type: 'final', text: run.reply ?? '' });
      else
        stream.end({
          type: 'failed',
          message: run.error ?? `the run ended ${run.status}`,
          status: run.status === 'aborted' ? 'aborted' : 'failed',
          // Refused or stopped by the shutdown: the message is not answered, the plugin keeps it for the restart.
          ...(run.abortedBy === 'shutdown' ? { retryable: true } : {}),
        });
      observer.replied(message.accountId, run.status === 'completed');
    });
    return { kind: 'reply', runId, agentId: route.agentId, sessionKey: route.sessionKey, events: stream };
  }
}
