import type { Span } from '@opentelemetry/api';
import type { Tracing } from '../../common/telemetry/tracing';
import type { WorkOrigin } from '../../common/work-origin';
import type { ApprovalGate } from '../approvals';
import type { ResolvedAgent } from '../config';
import type { GatewayMetrics } from '../metrics';
import type { SessionStore } from '../sessions';
import type { AbortCascade } from './abort-cascade';
import type { ToolCall } from './model-provider.port';
import type { RunHooks } from './run-hooks';
import { usageOrigin } from './run-outcome';
import { recordToolResult, toolSpanOptions } from './run-spans';
import type { StartRunInput } from './start-run-input';
import { approvalRefusal, decisionRefusal } from './tool-approval';
import type { ToolRegistry, ToolResult } from './tool-registry';

/** What one call runs with: the run, its work's origin, its abort and cascade, and how a tool ends the turn. */
export interface ToolCallRun {
  agent: ResolvedAgent;
  policy: Pick<ResolvedAgent, 'tools'>;
  input: StartRunInput;
  runId: string;
  origin: WorkOrigin;
  signal: AbortSignal;
  cascade: AbortCascade;
  turn: { endedWith?: string };
}

/**
 * One tool call of a run, from the model's request to the tool line in the transcript (docs/runtime.md#what-a-run-does):
 * the plugins' `before_tool_call` hooks may refuse it, an operator may have to approve it (docs/approvals.md), then the
 * tool runs in its span; the result, whatever it is, is written and counted. Returns the result's text for the model.
 */
export class ToolCallStep {
  constructor(
    private readonly deps: {
      tools: ToolRegistry;
      hooks: RunHooks;
      tracing: Tracing;
      metrics: GatewayMetrics;
      sessions: Pick<SessionStore, 'append'>;
      approvals?: ApprovalGate;
    },
  ) {}

  async call(call: ToolCall, run: ToolCallRun): Promise<string> {
    const { tools, tracing, metrics, sessions } = this.deps;
    const { agent, input, runId, signal } = run;
    const result = await tracing.inSpan(`execute_tool ${call.name}`, toolSpanOptions(call), async (span: Span) => {
      const refusal = (await this.hookRefusal(agent, call, input)) ?? (await this.approvalOutcome(call, run));
      if (refusal) {
        recordToolResult(span, refusal);
        return refusal;
      }
      const answer = await tools.call(run.policy, call.name, call.arguments, {
        sessionKey: input.sessionKey,
        agentId: agent.id,
        runId,
        signal,
        provenance: input.provenance,
        origin: run.origin,
        onAbort: (stop) => run.cascade.add(stop),
        perRunTools: input.perRunTools,
        endTurn: (reply) => {
          run.turn.endedWith = reply;
        },
      });
      recordToolResult(span, answer);
      return answer;
    });
    metrics.toolCall(call.name, result.status);
    const text = JSON.stringify(result);
    await sessions.append(input.sessionKey, { role: 'tool', text, runId, meta: { toolCallId: call.id, name: call.name } });
    return text;
  }

  /**
   * The operator's say on a call that needs approval (docs/approvals.md): undefined to go on, else the refusal. The call a
   * resumed run answers was decided before the run began.
   */
  private approvalOutcome(call: ToolCall, { agent, input, runId, signal }: ToolCallRun): Promise<ToolResult | undefined> {
    const decided = input.resume?.approval;
    if (decided && decided.toolCallId === call.id) return Promise.resolve(decisionRefusal(decided));
    const whom = usageOrigin(input);
    const taskId = typeof input.meta?.taskId === 'string' ? input.meta.taskId : undefined;
    const asker = { runId, sessionKey: input.sessionKey, channel: whom.channel, caller: whom.caller, taskId };
    return approvalRefusal(this.deps.approvals, agent, call, this.deps.tools.policyNameOf(call.name), asker, signal);
  }

  /** A `before_tool_call` hook's refusal as the tool's result (the model reads the reason), or undefined to go on. */
  private async hookRefusal(agent: ResolvedAgent, call: ToolCall, input: StartRunInput): Promise<ToolResult | undefined> {
    const { hooks } = this.deps;
    if (!hooks.has('before_tool_call')) return undefined;
    const { refusal } = await hooks.emit('before_tool_call', {
      agentId: agent.id,
      sessionKey: input.sessionKey,
      tool: call.name,
      // A copy: a handler cannot change what the tool will be called with.
      args: structuredClone(call.arguments ?? {}),
    });
    return refusal && { status: 'forbidden', error: `${call.name} refused by plugin ${refusal.plugin}: ${refusal.reason}` };
  }
}
