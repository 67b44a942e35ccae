import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Tracing } from '../../common/telemetry/tracing';
import type { A2aWireVersion, TaskState } from '../../common/a2a-protocol';
import { ConfigStore } from '../config';
import { A2aOutboundError } from './a2a-outbound-error';
import {
  isSettled,
  METHOD_NOT_FOUND,
  PeerProtocolError,
  PeerTaskView,
  readSendResult,
  readTask,
  replyText,
  TASK_NOT_CANCELABLE,
  UNSUPPORTED_OPERATION,
} from './a2a-wire';
import { GuardedTransport } from './guarded-transport';
import { resolveOutboundPeer } from './outbound-peers';
import { PeerDialect, peerDialect } from './peer-dialect';
import { callPeer, PeerEndpoint, peerView, sanitize } from './peer-rpc';
import { maskSecretValues } from '../../common/secrets/secret-mask';
import { backoffDelays, sleep } from './poll-schedule';
import { PeerCards } from './peer-card';
import { StreamedSend, streamFromPeer } from './peer-stream';
import { inPeerCallSpan, peekTaskId, recordTaskId } from './peer-call-span';
import { PeerCallLog } from './peer-call-log';
import { GatewayMetrics } from '../metrics';
import type { Span } from '@opentelemetry/api';

export const A2A_OUTBOUND_OPTIONS = Symbol('A2A_OUTBOUND_OPTIONS');

export interface A2aOutboundOptions {
  /** First GetTask delay [250 ms], doubled up to `pollMaxMs` [4 s]. */
  pollInitialMs?: number;
  pollMaxMs?: number;
}

/** A reply longer than this is cut: it lands in transcripts and tool results. */
export const MAX_REPLY_CHARS = 65_536;
/** Consecutive GetTask transport failures tolerated while waiting (a peer restarting, a dropped socket). */
const MAX_POLL_FAILURES = 3;
/**
 * How long the CancelTask sent for an aborted run may take (docs/decisions.md#outbound): the aborted run waits
 * for it, so a peer that does not answer must not hold that run for the transport's full 30 s.
 */
export const OUTBOUND_CANCEL_TIMEOUT_MS = 5_000;

/** What the peer said to our CancelTask: its task's state, or why the cancel did not go through. */
export type A2aCancelOutcome = { canceled: true; state: TaskState } | { canceled: false; state?: TaskState; error: string };

export interface A2aSendOutcome {
  /**
   * ok: settled with an answer; accepted: sent, not waited for; timeout: still running at replyTimeoutMs;
   * error: the peer's task failed or polling broke.
   */
  status: 'ok' | 'accepted' | 'timeout' | 'error';
  peer: string;
  /** Null when the peer answered with a message instead of a task. */
  taskId: string | null;
  contextId?: string;
  state: TaskState;
  reply?: string;
  error?: string;
  /** The send method the peer accepted (`message/send` after the -32601 fallback, or for a 0.3 peer). */
  method: string;
  /** The A2A version the exchange was held in. */
  protocolVersion: A2aWireVersion;
}

/**
 * The A2A client for configured peers, in the version the peer is configured for (`protocolVersion`): 1.0
 * SendMessage with returnImmediately and, on -32601, one retry of the same message in A2A 0.3 (`message/send`);
 * a peer pinned to 0.3 gets `message/send` from the start. Then (with `wait`) GetTask / `tasks/get` polling with
 * backoff until the task settles or `channels.a2a.replyTimeoutMs` passes. The peer, its url and its outboundToken are read from the current
 * snapshot for every request, so edits and token rotations apply to the next request without a restart.
 * The exchange: docs/outbound.md#2-the-wire-exchange.
 */
@Injectable()
export class A2aOutboundClient {
  private readonly pollInitialMs: number;
  private readonly pollMaxMs: number;
  private readonly cards: PeerCards;
  private readonly calls: PeerCallLog;

  constructor(
    private readonly config: ConfigStore,
    private readonly transport: GuardedTransport,
    @Optional() @Inject(A2A_OUTBOUND_OPTIONS) options: A2aOutboundOptions = {},
    @Optional() private readonly tracing: Tracing = new Tracing(),
    @Optional() metrics: GatewayMetrics = new GatewayMetrics(),
  ) {
    this.calls = new PeerCallLog(metrics);
    this.pollInitialMs = options.pollInitialMs ?? 250;
    this.pollMaxMs = options.pollMaxMs ?? 4000;
    this.cards = new PeerCards(transport, tracing);
  }

  /** One call to a peer: in its client span, logged, counted and timed. */
  private peerCall<T>(peer: PeerEndpoint, method: string, fn: (span: Span) => Promise<T>, taskId?: string): Promise<T> {
    return this.calls.observe(peer.name, method, () => inPeerCallSpan(this.tracing, peer, method, fn, taskId), taskId);
  }

  /** Throws A2aOutboundError when no task came into existence; otherwise reports the task's outcome. */
  async send(
    peerName: string,
    text: string,
    options: { wait?: boolean; signal?: AbortSignal; metadata?: Record<string, unknown> } = {},
  ): Promise<A2aSendOutcome> {
    const started = Date.now();
    const peer = resolveOutboundPeer(this.config.current(), peerName);
    const messageId = randomUUID();
    let dialect = peerDialect(peer.protocolVersion);
    // A caller that waits for the reply gets it as soon as it exists from a peer that streams, not at a poll tick.
    const streamed = options.wait ? await this.tryStreaming(peer, dialect, text, messageId, options.signal, options.metadata) : undefined;
    if (streamed) {
      const spoken = { ...dialect, sendMethod: dialect.streamMethod };
      const view = peerView(peer, () => streamed.view);
      if (streamed.settled || view.taskId === null) return outcome(peer, view, spoken);
      return this.waitForTask(peer.name, view, spoken, started, options.signal);
    }
    const sendIn = (endpoint: PeerEndpoint, spoken: PeerDialect) =>
      this.peerCall(endpoint, spoken.sendMethod, async (span) => {
        const result = await callPeer(
          this.transport,
          endpoint,
          spoken.sendMethod,
          spoken.sendParams(endpoint.name, text, messageId, options.metadata),
          {
            versionHeaders: spoken.headers,
            signal: options.signal,
          },
        );
        recordTaskId(span, peekTaskId(result));
        return result;
      });
    let result: unknown;
    try {
      result = await sendIn(peer, dialect);
    } catch (err) {
      if (dialect.version !== '1.0' || !(err instanceof A2aOutboundError) || err.rpcCode !== METHOD_NOT_FOUND) throw err;
      // A peer that does not know SendMessage predates 1.0: the same message (same id) once more in 0.3, never a third time.
      dialect = peerDialect('0.3');
      result = await sendIn(resolveOutboundPeer(this.config.current(), peer.name), dialect);
    }
    const view = peerView(peer, () => readSendResult(result));
    if (!options.wait || view.taskId === null || isSettled(view.state)) return outcome(peer, view, dialect);
    return this.waitForTask(peer.name, view, dialect, started, options.signal);
  }

  /**
   * The streamed send, when the peer's card says it streams; undefined when it does not, or when it refused the
   * stream before any task existed (no such method, unsupported, an HTTP error): the same message is then sent and
   * polled as for any peer.
   */
  private async tryStreaming(
    peer: PeerEndpoint,
    dialect: PeerDialect,
    text: string,
    messageId: string,
    signal?: AbortSignal,
    metadata?: Record<string, unknown>,
  ): Promise<StreamedSend | undefined> {
    if (!(await this.cards.streams(peer))) return undefined;
    try {
      return await this.peerCall(peer, dialect.streamMethod, async (span) => {
        const streamed = await streamFromPeer(this.transport, peer, dialect, text, messageId, signal, metadata);
        recordTaskId(span, streamed.view.taskId);
        return streamed;
      });
    } catch (err) {
      if (!(err instanceof A2aOutboundError)) throw err;
      const refused = err.reason === 'http' || err.rpcCode === METHOD_NOT_FOUND || err.rpcCode === UNSUPPORTED_OPERATION;
      if (refused) return undefined;
      throw err;
    }
  }

  /**
   * CancelTask for a task we sent (best effort, at most OUTBOUND_CANCEL_TIMEOUT_MS; never throws), in the A2A
   * version the task was sent in (`tasks/cancel` in 0.3). A -32002 answer means the task was already over at the peer.
   */
  async cancel(peerName: string, taskId: string, version: A2aWireVersion): Promise<A2aCancelOutcome> {
    const dialect = peerDialect(version);
    try {
      const peer = resolveOutboundPeer(this.config.current(), peerName);
      const raw = await this.peerCall(
        peer,
        dialect.cancelMethod,
        () =>
          callPeer(
            this.transport,
            peer,
            dialect.cancelMethod,
            { id: taskId },
            {
              versionHeaders: dialect.headers,
              timeoutMs: OUTBOUND_CANCEL_TIMEOUT_MS,
            },
          ),
        taskId,
      );
      const view = peerView(peer, () => readTask(raw));
      return view.state === 'TASK_STATE_CANCELED'
        ? { canceled: true, state: view.state }
        : { canceled: false, state: view.state, error: `peer ${peerName} answered CancelTask with ${view.state}` };
    } catch (err) {
      if (err instanceof A2aOutboundError && err.rpcCode === TASK_NOT_CANCELABLE) {
        return { canceled: false, error: `peer ${peerName}: task ${taskId} was already over` };
      }
      return { canceled: false, error: (err as Error).message };
    }
  }

  private async waitForTask(
    name: string,
    first: PeerTaskView,
    dialect: PeerDialect,
    started: number,
    signal?: AbortSignal,
  ): Promise<A2aSendOutcome> {
    const taskId = first.taskId as string;
    const deadline = started + this.config.current().config.channels.a2a.replyTimeoutMs;
    let view = first;
    let failures = 0;
    const stop = (status: 'timeout' | 'error', error: string): A2aSendOutcome => ({
      status,
      peer: name,
      taskId,
      ...(view.contextId ? { contextId: view.contextId } : {}),
      state: view.state,
      error,
      method: dialect.sendMethod,
      protocolVersion: dialect.version,
    });

    const delays = backoffDelays(this.pollInitialMs, this.pollMaxMs);
    for (;;) {
      const delay = delays.next().value;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return stop('timeout', timeoutMessage(name, taskId, view.state, deadline - started));
      if (!(await sleep(Math.min(delay, remaining), signal))) return stop('error', 'stopped waiting: the run was aborted');
      const left = deadline - Date.now();
      if (left <= 0) return stop('timeout', timeoutMessage(name, taskId, view.state, deadline - started));

      let peer: PeerEndpoint;
      try {
        peer = resolveOutboundPeer(this.config.current(), name);
      } catch (err) {
        return stop('error', `stopped waiting for task ${taskId}: ${(err as Error).message}`);
      }
      try {
        const raw = await this.peerCall(
          peer,
          dialect.getMethod,
          () =>
            callPeer(this.transport, peer, dialect.getMethod, { id: taskId }, { versionHeaders: dialect.headers, timeoutMs: left, signal }),
          taskId,
        );
        view = peerView(peer, () => {
          const polled = readTask(raw);
          if (polled.taskId !== taskId) throw new PeerProtocolError(`GetTask ${taskId} answered with another task`);
          return polled;
        });
        failures = 0;
      } catch (err) {
        const e = err as A2aOutboundError;
        if (e.reason === 'aborted') return stop('error', 'stopped waiting: the run was aborted');
        const transient = e.reason === 'timeout' || e.reason === 'unreachable';
        if (transient && ++failures < MAX_POLL_FAILURES) continue;
        return stop('error', `polling task ${taskId} failed: ${e.message}`);
      }
      if (isSettled(view.state)) return outcome(peer, view, dialect);
    }
  }
}

function outcome(peer: PeerEndpoint, view: PeerTaskView, dialect: PeerDialect): A2aSendOutcome {
  const base = {
    peer: peer.name,
    taskId: view.taskId,
    ...(view.contextId ? { contextId: view.contextId } : {}),
    state: view.state,
    method: dialect.sendMethod,
    protocolVersion: dialect.version,
  };
  const secrets = peer.secrets;
  if (view.state === 'TASK_STATE_FAILED' || view.state === 'TASK_STATE_CANCELED' || view.state === 'TASK_STATE_REJECTED') {
    const why = view.statusText ? `: ${sanitize(view.statusText, secrets)}` : '';
    return { ...base, status: 'error', error: `peer ${peer.name} reported ${view.state}${why}` };
  }
  if (!isSettled(view.state)) return { ...base, status: 'accepted' };
  const reply = replyText(view);
  return { ...base, status: 'ok', ...(reply !== undefined ? { reply: clip(maskSecretValues(reply, secrets)) } : {}) };
}

function timeoutMessage(peer: string, taskId: string, state: TaskState, waitedMs: number): string {
  return `no final answer from peer ${peer} within ${waitedMs} ms (channels.a2a.replyTimeoutMs); task ${taskId} is still ${state}`;
}

function clip(text: string): string {
  return text.length > MAX_REPLY_CHARS ? `${text.slice(0, MAX_REPLY_CHARS)}\n[reply truncated at ${MAX_REPLY_CHARS} characters]` : text;
}
