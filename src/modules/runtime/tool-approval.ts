import type { Approval, ApprovalGate } from '../approvals';
import { requiresApproval } from '../approvals';
import type { ResolvedAgent } from '../config';
import type { ToolCall } from './model-provider.port';
import type { ToolResult } from './tool-result';

/** Who asks: the run, where its message came from, and the A2A task it belongs to (its run input's `meta.taskId`). */
export interface ApprovalAsker {
  runId: string;
  sessionKey: string;
  channel: string;
  caller?: string;
  taskId?: string;
}

/**
 * Before a tool whose call needs an operator (the agent's `tools.requiresApproval`, matched on the name the policy
 * uses): asks the gate and waits. Undefined to go on with the call; else the result the model reads instead. A run
 * aborted while it waits ends with its abort, not with a result (nothing is written for the call, so a resumed run
 * after a restart still answers it).
 */
export async function approvalRefusal(
  gate: ApprovalGate | undefined,
  agent: ResolvedAgent,
  call: ToolCall,
  policyName: string,
  asker: ApprovalAsker,
  signal: AbortSignal,
): Promise<ToolResult | undefined> {
  if (!gate || !requiresApproval(agent, policyName)) return undefined;
  const decided = await gate.request(
    {
      agentId: agent.id,
      ...asker,
      tool: policyName,
      toolCallId: call.id,
      args: call.arguments ?? {},
      timeoutMs: agent.approvals.timeoutMs,
    },
    signal,
  );
  if (decided.state === 'withdrawn') throw signal.reason ?? new Error('the run was aborted while it waited for approval');
  return decisionRefusal(decided);
}

/** An approval's decision as the tool call's outcome: undefined when approved, else the refusal the model reads. */
export function decisionRefusal(decided: Approval): ToolResult | undefined {
  if (decided.state === 'approved') return undefined;
  const note = decided.note ? `: ${decided.note}` : '';
  if (decided.state === 'denied') {
    return { status: 'forbidden', error: `the operator denied this call of ${decided.tool} (approval ${decided.id})${note}` };
  }
  return {
    status: 'forbidden',
    error: `no operator approved this call of ${decided.tool} in time (approval ${decided.id}, ${decided.state}); it was not made`,
  };
}
