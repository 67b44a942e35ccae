import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { CLAWGATE } from '../../common/telemetry/span-attributes';
import { Tracing } from '../../common/telemetry/tracing';
import { ChannelRegistry, type DeliveryResult } from '../channels';
import { ConfigStore } from '../config';
import { AgentRunner, isTerminalRunStatus, type RunHandle, type RunRecord } from '../runtime';
import { agentIdFromSessionKey, SESSION_STORE, type InterSessionProvenance, type SessionStore } from '../sessions';
import type { StartRunInput } from '../runtime';
import type { PingPongEnd } from './exchange-record';
import type { AnnounceOutcome, ExchangeProgress } from './exchange-recorder';
import { beginStep, endStep, stepStarted, type TracedStep } from './exchange-spans';
import { ANNOUNCE_MESSAGE, ANNOUNCE_SKIP, announcePrompt, REPLY_SKIP, replyStepPrompt, REQUESTER_ABORTED } from './sessions-send-prompts';

export interface RoundOneOutcome {
  requesterKey: string;
  targetKey: string;
  request: string;
  roundOne: RunRecord;
  provenance: InterSessionProvenance;
  timeoutSeconds: number;
  /** The requesting run's signal: once it aborts, no step starts and the running one is aborted. */
  signal?: AbortSignal;
  /** Where each step is recorded, for whoever asks later what became of the exchange. */
  progress?: ExchangeProgress;
  /** The trace context of the sessions_send call: every step's span is its child (docs/telemetry.md). */
  traceContext?: Context;
}

/** How long one ping-pong or announce step may take when the caller did not wait (timeoutSeconds 0). */
const DEFAULT_STEP_SECONDS = 30;

/**
 * After round one of sessions_send: the ping-pong between requester and target, then the announce
 * step in the target session and delivery of its answer through the target's channel. Every step runs on
 * the nested lane of its session, so a run that waits on this flow can never block it.
 * See docs/sessions.md#the-ping-pong-and-the-announce.
 */
@Injectable()
export class SessionsSendFlow {
  private readonly logger = new Logger('sessions-send-flow');

  constructor(
    private readonly config: ConfigStore,
    // Runner and store are typed to what the flow uses, so it can run over stand-ins for both.
    @Inject(AgentRunner) private readonly runner: Pick<AgentRunner, 'startRun' | 'waitForRun' | 'abortRun'>,
    private readonly channels: ChannelRegistry,
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'get' | 'append'>,
    @Optional() private readonly tracing: Tracing = new Tracing(),
  ) {}

  async continueAfterRoundOne(o: RoundOneOutcome): Promise<void> {
    if (o.roundOne.status !== 'completed') return;
    const firstReply = o.roundOne.reply ?? '';
    const stepSeconds = o.timeoutSeconds > 0 ? o.timeoutSeconds : DEFAULT_STEP_SECONDS;
    const latest = await this.pingPong(o, firstReply, stepSeconds);
    await this.announce(o, firstReply, latest, stepSeconds);
  }

  /** Returns the latest reply of the exchange. Requester speaks first; stops on skip, empty, error, timeout. */
  private async pingPong(o: RoundOneOutcome, firstReply: string, stepSeconds: number): Promise<string> {
    const maxTurns = this.config.current().config.session.agentToAgent.maxPingPongTurns;
    o.progress?.pingPongStarted(maxTurns);
    let latest = firstReply;
    const end = (reason: PingPongEnd): string => {
      o.progress?.pingPongEnded(reason);
      return latest;
    };
    if (o.requesterKey === o.targetKey) return end('same-session');
    if (maxTurns <= 0) return end('disabled');
    if (isSkip(firstReply, REPLY_SKIP)) return end('reply-skip');
    let speaker = o.requesterKey;
    let listener = o.targetKey;
    for (let turn = 1; turn <= maxTurns; turn++) {
      const role = speaker === o.requesterKey ? 'requester' : 'target';
      const traced = this.beginStep(o, 'ping_pong', speaker, listener, turn);
      const record = await this.step(
        {
          sessionKey: speaker,
          message: latest,
          provenance: { ...o.provenance, sourceSessionKey: listener, ...traced.trace },
          extraSystemPrompt: replyStepPrompt(turn, maxTurns, role, agentIdFromSessionKey(speaker)),
          lane: 'nested',
          meta: { sessionsSend: { step: 'ping-pong', turn, maxTurns, role, chainId: o.provenance.chainId } },
        },
        stepSeconds,
        o.signal,
        (run) => {
          stepStarted(traced, run.runId);
          o.progress?.turnStarted(turn, role, speaker, run);
        },
      );
      endStep(traced, record);
      if (!record || o.signal?.aborted) return end('requester-aborted');
      if (record.status !== 'completed') return end(isTerminalRunStatus(record.status) ? 'step-failed' : 'step-timeout');
      const reply = record.reply ?? '';
      if (!reply.trim()) return end('empty-reply');
      if (isSkip(reply, REPLY_SKIP)) return end('reply-skip');
      latest = reply;
      [speaker, listener] = [listener, speaker];
    }
    return end('max-turns');
  }

  private async announce(o: RoundOneOutcome, firstReply: string, latest: string, stepSeconds: number): Promise<void> {
    const traced = this.beginStep(o, 'announce', o.targetKey, o.requesterKey);
    const record = await this.step(
      {
        sessionKey: o.targetKey,
        message: ANNOUNCE_MESSAGE,
        provenance: { ...o.provenance, ...traced.trace },
        extraSystemPrompt: announcePrompt(o.request, firstReply, latest),
        lane: 'nested',
        meta: { sessionsSend: { step: 'announce', chainId: o.provenance.chainId } },
      },
      stepSeconds,
      o.signal,
      (run) => {
        stepStarted(traced, run.runId);
        o.progress?.announceStarted(o.targetKey, run);
      },
    );
    // The delivery is part of the announce's span (a webhook it calls continues the trace from there).
    const outcome = await this.tracing.withSpan(traced.span, () => this.announceOutcome(o, record, stepSeconds), o.traceContext);
    traced.span.setAttribute(CLAWGATE.announceStatus, outcome.status);
    endStep(traced, record);
    o.progress?.announced(outcome);
  }

  private beginStep(
    o: RoundOneOutcome,
    step: 'ping_pong' | 'announce',
    sessionKey: string,
    peerSessionKey: string,
    turn?: number,
  ): TracedStep {
    const { chainId, hop } = o.provenance;
    return beginStep(this.tracing, step, { sessionKey, peerSessionKey, chainId, hop, turn }, o.traceContext);
  }

  /** What became of the announce: nothing to post (and why), or the channel's answer to posting it. */
  private async announceOutcome(o: RoundOneOutcome, record: RunRecord | undefined, stepSeconds: number): Promise<AnnounceOutcome> {
    if (!record || o.signal?.aborted) return { status: 'skipped', detail: REQUESTER_ABORTED };
    if (record.status !== 'completed') {
      return {
        status: 'failed',
        detail: isTerminalRunStatus(record.status)
          ? `the announce run ${record.status}: ${record.error ?? 'no reason given'}`
          : `the announce run did not finish within ${stepSeconds}s`,
      };
    }
    const text = record.reply ?? '';
    if (!text.trim()) return { status: 'skipped', detail: 'the announce answer was empty' };
    if (isSkip(text, ANNOUNCE_SKIP)) return { status: 'skipped', detail: `the target agent answered ${ANNOUNCE_SKIP}` };
    return this.deliver(o.targetKey, text, o.provenance.chainId);
  }

  /**
   * One step of the exchange, waited for up to `seconds`. Undefined when the requesting run was aborted before
   * it started; a step under way when it aborts is aborted and waited for, so the flow ends once nothing runs.
   */
  private async step(
    input: StartRunInput,
    seconds: number,
    signal: AbortSignal | undefined,
    started: (run: RunHandle) => void,
  ): Promise<RunRecord | undefined> {
    if (signal?.aborted) return undefined;
    const run = this.runner.startRun(input);
    started(run);
    const { runId } = run;
    const abort = () => this.runner.abortRun(runId, REQUESTER_ABORTED);
    signal?.addEventListener('abort', abort, { once: true });
    try {
      return await this.runner.waitForRun(runId, seconds * 1000);
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  /** Posts to the target session's delivery context; the outcome is written to its transcript. */
  private async deliver(sessionKey: string, text: string, chainId?: string): Promise<AnnounceOutcome> {
    const entry = await this.sessions.get(sessionKey);
    const ctx = entry?.deliveryContext;
    const adapter = ctx?.channel ? this.channels.get(ctx.channel) : undefined;
    let outcome: { status: DeliveryResult['status'] | 'skipped'; detail?: string };
    if (!ctx?.channel || !ctx.to) {
      outcome = { status: 'skipped', detail: 'the session has no delivery context (no channel to post to)' };
    } else if (!adapter) {
      outcome = { status: 'skipped', detail: `no adapter for channel "${ctx.channel}"` };
    } else {
      // The port does not promise that send never throws; a throwing adapter is a failed delivery, still recorded.
      outcome = await adapter.send({ sessionKey, to: ctx.to, text, accountId: ctx.accountId, threadId: ctx.threadId }).then(
        (result) => ({ ...result }),
        (err: unknown) => ({
          status: 'failed' as const,
          detail: `channel "${ctx.channel}" could not deliver: ${(err as Error)?.message ?? String(err)}`,
        }),
      );
    }
    this.logger.log(`announce for ${sessionKey}: ${outcome.status}`);
    await this.sessions.append(sessionKey, {
      role: 'system',
      text: `announce ${outcome.status}${outcome.detail ? `: ${outcome.detail}` : ''}`,
      meta: { sessionsSend: { step: 'delivery', chainId, channel: ctx?.channel, to: ctx?.to }, delivery: outcome },
    });
    if (!ctx?.channel) return outcome;
    return { ...outcome, target: { channel: ctx.channel, accountId: ctx.accountId, to: ctx.to, threadId: ctx.threadId } };
  }
}

function isSkip(text: string, token: string): boolean {
  return text.trim() === token;
}
