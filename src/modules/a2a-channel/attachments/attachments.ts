import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../config';
import { type AttachmentRecord, planAttachments, withAttachments } from './attachment-plan';
import { attachmentDir, writeAttachments } from '../../../common/attachments';
import type { FilePart } from '../protocol/message-parts';

/** The user message of a run, as the agent reads it and the transcript keeps it. */
export interface AgentMessage {
  text: string;
  /** How each attachment was given; absent without files. */
  attachments?: AttachmentRecord[];
}

/**
 * Turns a peer's text and files into the message its agent runs on (docs/a2a.md#files): stores the files that
 * are not shown inline under the state dir (`agents/<agentId>/attachments/<taskId>/`) before the run starts,
 * so every path the message names exists.
 */
@Injectable()
export class A2aAttachments {
  constructor(@Inject(GATEWAY_OPTIONS) private readonly options: Pick<GatewayOptions, 'stateDir'>) {}

  async agentMessage(agentId: string, taskId: string, text: string, files: readonly FilePart[]): Promise<AgentMessage> {
    const dir = attachmentDir(agentId, taskId);
    const plan = planAttachments(files, dir);
    await writeAttachments(this.options.stateDir, dir, plan.toStore);
    return { text: withAttachments(text, plan), attachments: plan.records };
  }
}
