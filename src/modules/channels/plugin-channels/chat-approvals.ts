import { Logger } from '@nestjs/common';
import type { ChannelDeliveryReceipt, ChannelInboundMessage, ChannelInboundOutcome, ChannelOutboundMessage } from '../../../plugin-sdk';
import type { Approval, ApprovalGate } from '../../approvals';
import type { ConfigStore } from '../../config';
import type { SessionStore } from '../../sessions';
import type { ChannelAdapter } from '../channel-adapter.port';

/** The chat channels plugins run: the adapter announces use, and a send to a chat as an inbound message names it. */
export interface ChatChannels {
  /** Undefined for a channel that is no chat: one no plugin runs, and a2a (its tasks' approvals are its own). */
  adapter(id: string): ChannelAdapter | undefined;
  send(id: string, message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> | undefined;
}

/** `/approve <id> [note]` or `/deny <id> [note]`; Telegram may add `@<bot>` to a command said in a group. */
const COMMAND = /^\/(approve|deny)(?:@\S+)?\s+(\S+)(?:\s+([\s\S]*))?$/i;
/** The arguments shown in a chat are cut here (the console and `clawgate approvals list --json` show them whole). */
const ARGS_CHARS = 300;

/**
 * Tool approvals in the chat the work came from (docs/approvals.md#from-a-chat): a request of a run a chat message
 * started is posted to that chat, and so is its outcome; a sender the agent's `tools.approvers` names
 * (`<channel>:<sender id>`) decides it there with `/approve <id>` or `/deny <id> [reason]`. Nobody else in a chat can:
 * their commands reach neither the gate nor the agent.
 */
export class ChatApprovals {
  private readonly logger = new Logger('approvals');
  /** Requests posted to a chat, so their outcome is posted there too. */
  private readonly posted = new Set<string>();

  constructor(
    private readonly gate: ApprovalGate,
    private readonly config: ConfigStore,
    private readonly sessions: Pick<SessionStore, 'get'>,
    private readonly chats: ChatChannels,
  ) {}

  start(): void {
    this.gate.onChange((approval) => void this.changed(approval));
    this.gate.addResumer((approval) => this.resumed(approval));
  }

  /**
   * After a restart, the decision on a call a chat-started run waited for resumes nothing: the chat's plugin hands the
   * message that started the run in again (its journal keeps every message not answered), and that run asks anew. False
   * for a chat's session (its work is taken care of), undefined for any other.
   */
  private resumed(approval: Approval): Promise<false | undefined> {
    return Promise.resolve(this.chats.adapter(approval.channel) ? false : undefined);
  }

  /**
   * An approval command said in a chat: decided when its sender is an approver of the agent that asked, and answered
   * there; `ignored` either way, so the text never reaches an agent. Undefined for any other message.
   */
  async command(channel: string, message: ChannelInboundMessage): Promise<ChannelInboundOutcome | undefined> {
    const parsed = COMMAND.exec(message.text.trim());
    if (!parsed) return undefined;
    const [, verb, id, note] = parsed;
    const sender = `${channel}:${message.sender.id}`;
    const approval = await this.gate.get(id);
    const approvers = approval ? this.approversOf(approval.agentId) : this.everyApprover();
    if (!approvers.includes(sender)) {
      return { kind: 'ignored', reason: `approval command from ${sender}, who is not an approver (tools.approvers)` };
    }
    const answer = await this.decide(id, verb.toLowerCase() === 'approve' ? 'approved' : 'denied', sender, note?.trim());
    await this.say(channel, message, approval?.sessionKey, answer);
    return { kind: 'ignored', reason: `approval command from ${sender}: ${answer}` };
  }

  private async decide(id: string, state: 'approved' | 'denied', sender: string, note?: string): Promise<string> {
    try {
      const decided = await this.gate.decide(id, state, sender, note || undefined);
      return `${decided.state === 'approved' ? 'Approved' : 'Denied'}: ${decided.tool} for agent ${decided.agentId} (approval ${decided.id}).`;
    } catch (err) {
      return (err as Error).message;
    }
  }

  private async changed(approval: Approval): Promise<void> {
    try {
      if (approval.state === 'pending') {
        if (await this.post(approval, this.requestText(approval))) this.posted.add(approval.id);
        return;
      }
      if (!this.posted.delete(approval.id)) return;
      await this.post(approval, outcomeText(approval));
    } catch (err) {
      this.logger.warn(`approval ${approval.id}: could not tell the chat: ${(err as Error).message}`);
    }
  }

  /** Posts to the chat of the approval's session; false when the session is not a chat's. */
  private async post(approval: Approval, text: string): Promise<boolean> {
    const adapter = this.chats.adapter(approval.channel);
    if (!adapter) return false;
    const ctx = (await this.sessions.get(approval.sessionKey))?.deliveryContext;
    if (!ctx?.to || ctx.channel !== approval.channel) return false;
    const sent = await adapter.send({
      sessionKey: approval.sessionKey,
      to: ctx.to,
      accountId: ctx.accountId,
      threadId: ctx.threadId,
      text,
    });
    if (sent.status === 'failed') throw new Error(sent.detail ?? 'the platform did not take it');
    return true;
  }

  /** Answers a command where it was said (the same chat and thread), as a reply to it. */
  private async say(channel: string, message: ChannelInboundMessage, sessionKey: string | undefined, text: string): Promise<void> {
    const answer: ChannelOutboundMessage = {
      sessionKey: sessionKey ?? '',
      accountId: message.accountId,
      peer: message.peer,
      ...(message.threadId ? { threadId: message.threadId } : {}),
      replyToId: message.messageId,
      text,
    };
    await this.chats.send(channel, answer)?.catch((err: Error) => {
      this.logger.warn(`could not answer an approval command on ${channel}: ${err.message}`);
    });
  }

  private requestText(approval: Approval): string {
    const args = JSON.stringify(approval.args);
    const shown = args.length > ARGS_CHARS ? `${args.slice(0, ARGS_CHARS - 1)}…` : args;
    const here = this.approversOf(approval.agentId).some((a) => a.startsWith(`${approval.channel}:`));
    const how = here
      ? `An approver replies /approve ${approval.id} or /deny ${approval.id} <reason>.`
      : `An operator decides it (clawgate approvals approve ${approval.id}).`;
    return `Agent ${approval.agentId} wants to call ${approval.tool} ${shown} and waits for approval. ${how} Without a decision by ${approval.expiresAt} it is refused.`;
  }

  private approversOf(agentId: string): string[] {
    return this.config.current().agentsById.get(agentId)?.approvals.approvers ?? [];
  }

  private everyApprover(): string[] {
    return [...this.config.current().agentsById.values()].flatMap((a) => a.approvals.approvers);
  }
}

function outcomeText(approval: Approval): string {
  const by = approval.decidedBy === 'timeout' ? 'nobody decided in time' : `by ${approval.decidedBy}`;
  const note = approval.note ? ` (${approval.note})` : '';
  return `Approval ${approval.id} for ${approval.tool}: ${approval.state}, ${by}${note}.`;
}
