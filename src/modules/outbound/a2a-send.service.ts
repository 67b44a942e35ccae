import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { Tracing } from '../../common/telemetry/tracing';
import { BUDGET_METADATA_KEY, type BudgetMetadata, type WorkOrigin } from '../../common/work-origin';
import { ConfigStore } from '../config';
import { BudgetGate } from '../usage';
import { ToolRegistry, toolResultFromError, type ToolContext, type ToolResult } from '../runtime';
import { agentIdFromSessionKey, mainSessionKey, SESSION_STORE, type SessionStore } from '../sessions';
import { BUILT_IN_TOOLS } from '../../common/built-in-tools';
import { isTerminalState } from '../../common/a2a-protocol';
import { A2aCancelOutcome, A2aOutboundClient, A2aSendOutcome } from './a2a-outbound.client';
import { A2aOutboundError } from './a2a-outbound-error';
import { A2A_SEND_SCHEMA, A2aSendArgs } from './a2a-send.schema';
import { outboundPeerName, sandboxedFromPeers } from './outbound-peers';
import type { A2aSendResultDto } from './dto/a2a-send.dto';

/** Where operator sends (admin API) are recorded: a dedicated session of the default agent. */
export const OPERATOR_OUTBOUND_SESSION = 'a2a-outbound';
export const A2A_CHANNEL = 'a2a';
export const SANDBOX_REFUSAL = 'Sandboxed sessions cannot send to A2A peers.';
/** The tool result of a send whose run was aborted while it was under way. */
export const SEND_ABORTED = 'the run was aborted; the task at the peer is canceled and its result is not used';

/**
 * `a2a_send` for agents and the admin send endpoint: both go through the one A2aOutboundClient and
 * both write the outcome to the sending session's transcript — a `system` line whose meta `a2a_outbound`
 * names peer, task and state, with `inter_session` provenance (source `a2a:<peer>`) when it carries a reply.
 * See docs/outbound.md#1-sending-a-task-to-a-peer and docs/outbound.md#3-where-the-outcome-is-recorded.
 */
@Injectable()
export class A2aSendService implements OnModuleInit {
  constructor(
    private readonly registry: ToolRegistry,
    // Client and store are typed to what it uses, so the tool can run over stand-ins for both.
    @Inject(A2aOutboundClient) private readonly client: Pick<A2aOutboundClient, 'send' | 'cancel'>,
    private readonly config: ConfigStore,
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'append'>,
    @Optional() private readonly tracing: Tracing = new Tracing(),
    /** What the sending run's work may still spend, handed to the peer (docs/usage.md#across-gateways). */
    @Optional() private readonly budgets?: BudgetGate,
  ) {}

  onModuleInit(): void {
    this.registry.register<A2aSendArgs>({
      name: BUILT_IN_TOOLS.a2aSend,
      description:
        'Send a task in plain text to a remote A2A agent configured as a peer (target a2a:<peer>). ' +
        'Returns the task id and state; with wait=true also the reply.',
      parameters: A2A_SEND_SCHEMA,
      handler: (ctx, args) => this.sendAsTool(ctx, args),
    });
  }

  /**
   * The tool: errors become results (`not_found` for an unknown peer), never exceptions. A task the peer has not
   * finished is tied to the run: when the run is aborted, now or later, the peer gets a CancelTask, and what the
   * task answered after the abort is never recorded as its result.
   */
  async sendAsTool(
    ctx: Pick<ToolContext, 'sessionKey' | 'runId' | 'signal' | 'onAbort'> & Partial<Pick<ToolContext, 'origin'>>,
    args: A2aSendArgs,
  ): Promise<ToolResult> {
    const agent = this.config.current().agentsById.get(agentIdFromSessionKey(ctx.sessionKey));
    if (agent && sandboxedFromPeers(agent)) return { status: 'forbidden', error: SANDBOX_REFUSAL };
    try {
      const metadata = await this.budgetMetadata(ctx.origin);
      const outcome = await this.client.send(args.peer, args.text, { wait: args.wait ?? false, signal: ctx.signal, metadata });
      const stop = () => this.stopAtPeer(ctx.sessionKey, outcome, ctx.runId);
      if (ctx.signal.aborted) {
        // Aborted while the send was under way: the answer is late by definition.
        if (ctx.onAbort) ctx.onAbort(stop);
        else await stop();
        return { status: 'error', peer: outcome.peer, taskId: outcome.taskId, state: outcome.state, error: SEND_ABORTED };
      }
      if (outcome.taskId !== null && !isTerminalState(outcome.state)) ctx.onAbort?.(stop);
      await this.record(ctx.sessionKey, args.text, outcome, 'tool', ctx.runId);
      return { ...outcome };
    } catch (err) {
      if (!(err instanceof A2aOutboundError)) throw err;
      if (!err.beforeIo) await this.recordFailure(ctx.sessionKey, args, err, 'tool', ctx.runId);
      return toolResultFromError(err, { peer: args.peer });
    }
  }

  /**
   * The message metadata that tells the peer whose work this is and what it may still spend (docs/usage.md#across-gateways):
   * the least left of the limits on the work's origin, or undefined when none applies. A peer that trusts this
   * gateway holds the task to it; any other ignores it.
   */
  private async budgetMetadata(origin: WorkOrigin | undefined): Promise<Record<string, unknown> | undefined> {
    if (!origin || !this.budgets) return undefined;
    const asOrigin = { runId: origin.runId, agentId: origin.agentId, sessionKey: origin.sessionKey, channel: origin.channel };
    const left = await this.budgets.remaining({ ...asOrigin, caller: origin.caller, origin }, this.config.current().config);
    if (!left || (left.tokens === undefined && left.cost === undefined)) return undefined;
    const value: BudgetMetadata = {
      origin: {
        agent: origin.agentId,
        session: origin.sessionKey,
        channel: origin.channel,
        ...(origin.caller !== undefined ? { caller: origin.caller } : {}),
      },
      remaining: { ...(left.tokens !== undefined ? { tokens: left.tokens } : {}), ...(left.cost !== undefined ? { cost: left.cost } : {}) },
      budget: left.budget,
    };
    return { [BUDGET_METADATA_KEY]: value };
  }

  /** The admin endpoint: failures before a task exists are problems (404/409/502/504). */
  async sendAsOperator(peer: string, body: { text: string; wait?: boolean }): Promise<A2aSendResultDto> {
    const sessionKey = this.operatorSessionKey();
    try {
      const outcome = await this.client.send(peer, body.text, { wait: body.wait ?? false });
      await this.record(sessionKey, body.text, outcome, 'admin');
      return {
        status: outcome.status,
        taskId: outcome.taskId,
        state: outcome.state,
        ...(outcome.reply !== undefined ? { reply: outcome.reply } : {}),
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      };
    } catch (err) {
      if (!(err instanceof A2aOutboundError)) throw err;
      if (!err.beforeIo) await this.recordFailure(sessionKey, { peer, text: body.text }, err, 'admin');
      throw err;
    }
  }

  /** `agent:<default agent>:a2a-outbound`. */
  operatorSessionKey(): string {
    return mainSessionKey(this.config.current().config.defaultAgentId, OPERATOR_OUTBOUND_SESSION);
  }

  private async record(sessionKey: string, sent: string, o: A2aSendOutcome, via: 'tool' | 'admin', runId?: string): Promise<void> {
    const lines = [
      `a2a_send to a2a:${o.peer}: task ${o.taskId ?? '(none: the peer answered with a message)'} ${o.state} (${o.status})`,
      `sent: ${sent}`,
    ];
    if (o.reply !== undefined) lines.push(`reply: ${o.reply}`);
    if (o.error !== undefined) lines.push(`error: ${o.error}`);
    await this.sessions.append(sessionKey, {
      role: 'system',
      text: lines.join('\n'),
      runId,
      ...(o.reply !== undefined
        ? {
            provenance: {
              kind: 'inter_session',
              sourceSessionKey: `a2a:${o.peer}`,
              sourceChannel: A2A_CHANNEL,
              sourceTool: BUILT_IN_TOOLS.a2aSend,
              ...this.tracing.fields(),
            },
          }
        : {}),
      meta: { a2a_outbound: outboundMeta(o, { via }) },
    });
  }

  /**
   * The sending run was aborted: a task still open at the peer gets a CancelTask (best effort, bounded); one already
   * over keeps its result at the peer, unused here. Either way one `system` line says so, without the reply.
   */
  private async stopAtPeer(sessionKey: string, o: A2aSendOutcome, runId?: string): Promise<void> {
    const open = o.taskId !== null && !isTerminalState(o.state);
    const cancel: A2aCancelOutcome | undefined = open ? await this.client.cancel(o.peer, o.taskId as string, o.protocolVersion) : undefined;
    const what = !cancel
      ? `ended ${o.state}; the run that sent it was aborted, so its result is not used`
      : cancel.canceled
        ? 'canceled at the peer: the run that sent it was aborted'
        : `could not be canceled at the peer (${cancel.error}); the run that sent it was aborted, so its result is not used`;
    await this.sessions.append(sessionKey, {
      role: 'system',
      text: `a2a_send to a2a:${o.peer}: task ${o.taskId ?? '(none)'} ${what}`,
      runId,
      meta: {
        a2a_outbound: outboundMeta(o, {
          via: 'tool',
          state: cancel?.state ?? o.state,
          status: 'canceled',
          ...(cancel ? { cancel: cancel.canceled ? { canceled: true } : { canceled: false, error: cancel.error } } : {}),
        }),
      },
    });
  }

  private async recordFailure(
    sessionKey: string,
    args: A2aSendArgs,
    err: A2aOutboundError,
    via: 'tool' | 'admin',
    runId?: string,
  ): Promise<void> {
    const peer = outboundPeerName(args.peer);
    await this.sessions.append(sessionKey, {
      role: 'system',
      text: `a2a_send to a2a:${peer} failed: ${err.message}\nmessage: ${args.text}`,
      runId,
      meta: { a2a_outbound: { peer, target: `a2a:${peer}`, taskId: null, status: 'error', reason: err.reason, via } },
    });
  }
}

/** The `meta.a2a_outbound` of a transcript line about an outbound task: the outcome, with `extra` over it. */
function outboundMeta(o: A2aSendOutcome, extra: Record<string, unknown> & { via: 'tool' | 'admin' }): Record<string, unknown> {
  return {
    peer: o.peer,
    target: `a2a:${o.peer}`,
    taskId: o.taskId,
    ...(o.contextId ? { contextId: o.contextId } : {}),
    state: o.state,
    status: o.status,
    method: o.method,
    protocolVersion: o.protocolVersion,
    ...extra,
  };
}
