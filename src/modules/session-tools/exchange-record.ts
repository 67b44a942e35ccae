import type { RunRecord, RunStatus } from '../runtime';
import { parseSessionKey } from '../sessions';

/**
 * What the gateway remembers of one sessions_send exchange after the caller got its answer: round one, the
 * ping-pong turns, the announce. Kept as one JSON document per exchange (exchange-store.ts), named by round
 * one's run id — the runId every sessions_send result carries. See docs/sessions.md#following-up-on-an-exchange.
 */
export interface ExchangeRecord {
  /** Round one's run id: names the exchange. */
  runId: string;
  chainId: string;
  requesterSessionKey: string;
  targetSessionKey: string;
  /** The message sent, cut at REQUEST_EXCERPT_CHARS. */
  request: string;
  /** The status the sessions_send caller was answered with (set once it was answered). */
  callerStatus?: 'ok' | 'accepted' | 'timeout' | 'error';
  /** `running` while a step may still change; `interrupted` when the gateway stopped before that. */
  state: ExchangeState;
  startedAt: string;
  updatedAt: string;
  endedAt?: string;
  roundOne: ExchangeStep;
  /** Set once the flow reached the ping-pong (absent when round one did not complete). */
  pingPong?: PingPongRecord;
  /** Set once the flow reached the announce. */
  announce?: AnnounceRecord;
}

export type ExchangeState = 'running' | 'finished' | 'interrupted';

/** One run of the exchange as it was last seen. */
export interface ExchangeStep {
  runId: string;
  sessionKey: string;
  status: RunStatus;
  /** The run's reply, cut at REPLY_EXCERPT_CHARS (the transcript has all of it). */
  reply?: string;
  /** Length of the whole reply, when `reply` was cut. */
  replyChars?: number;
  error?: string;
  queuedAt?: string;
  startedAt?: string;
  endedAt?: string;
}

export interface PingPongTurn extends ExchangeStep {
  turn: number;
  role: 'requester' | 'target';
}

/** Why the back-and-forth stopped where it did. */
export type PingPongEnd =
  'same-session' | 'disabled' | 'reply-skip' | 'empty-reply' | 'step-failed' | 'step-timeout' | 'max-turns' | 'requester-aborted';

export interface PingPongRecord {
  maxTurns: number;
  turns: PingPongTurn[];
  /** Set once the ping-pong is over. */
  endedBecause?: PingPongEnd;
}

export type AnnounceStatus = 'pending' | 'delivered' | 'stored' | 'skipped' | 'failed';

/** Where an announce was posted: the target session's delivery context. */
export interface AnnounceTarget {
  channel: string;
  accountId?: string;
  to?: string;
  threadId?: string;
}

export interface AnnounceRecord {
  status: AnnounceStatus;
  detail?: string;
  target?: AnnounceTarget;
  /** The announce run (its reply is the text that was posted). */
  step?: ExchangeStep;
  /** When the outcome was known. */
  at?: string;
}

/** The message of an exchange as kept: enough to recognize it. */
export const REQUEST_EXCERPT_CHARS = 500;
/** Round one's reply as kept (it usually fits whole; the transcript keeps every reply in full). */
export const REPLY_EXCERPT_CHARS = 2000;
/** The replies of the later steps (ping-pong turns, the announce) as kept: they are many, and round one's is the answer. */
export const STEP_REPLY_EXCERPT_CHARS = 500;

/** The first `max` characters of `text`, never splitting a surrogate pair. */
export function excerpt(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return text.slice(0, end);
}

/** A run's record as an exchange step: the reply cut to `maxReply` characters, with its full length when cut. */
export function stepOf(run: RunRecord, maxReply = REPLY_EXCERPT_CHARS): ExchangeStep {
  const step: ExchangeStep = { runId: run.runId, sessionKey: run.sessionKey, status: run.status };
  if (run.reply !== undefined) {
    step.reply = excerpt(run.reply, maxReply);
    if (step.reply.length < run.reply.length) step.replyChars = run.reply.length;
  }
  if (run.error !== undefined) step.error = run.error;
  if (run.queuedAt) step.queuedAt = run.queuedAt;
  if (run.startedAt) step.startedAt = run.startedAt;
  if (run.endedAt) step.endedAt = run.endedAt;
  return step;
}

/** What a step that had not ended says once its exchange is found interrupted. */
export const STOPPED_BEFORE_END = 'the gateway stopped before this run ended';

/**
 * The record of an exchange the gateway stopped in the middle of (found at the next start): runs that had not
 * ended are `failed` with STOPPED_BEFORE_END (their process is gone), an announce not yet made is `skipped`.
 */
export function interrupted(record: ExchangeRecord, at: string): ExchangeRecord {
  const settle = <S extends ExchangeStep>(s: S): S =>
    s.status === 'queued' || s.status === 'running' ? { ...s, status: 'failed', error: STOPPED_BEFORE_END } : s;
  const out: ExchangeRecord = { ...record, state: 'interrupted', updatedAt: at, endedAt: at, roundOne: settle(record.roundOne) };
  if (record.pingPong) out.pingPong = { ...record.pingPong, turns: record.pingPong.turns.map(settle) };
  if (record.announce) {
    const announce: AnnounceRecord = { ...record.announce };
    if (announce.step) announce.step = settle(announce.step);
    if (announce.status === 'pending')
      Object.assign(announce, { status: 'skipped', detail: 'the gateway stopped before the announce', at });
    out.announce = announce;
  }
  return out;
}

/** Every run id of the exchange (round one, each turn, the announce), for lookups by any of them. */
export function runIdsOf(record: ExchangeRecord): string[] {
  return [
    record.roundOne.runId,
    ...(record.pingPong?.turns.map((t) => t.runId) ?? []),
    ...(record.announce?.step ? [record.announce.step.runId] : []),
  ];
}

/** The requester and target agents and the start of an exchange, kept as columns beside its record (the traffic). */
export function pairOf(record: ExchangeRecord): { started_at: number; from_agent: string; to_agent: string } {
  return {
    started_at: Date.parse(record.startedAt),
    from_agent: parseSessionKey(record.requesterSessionKey)?.agentId ?? '',
    to_agent: parseSessionKey(record.targetSessionKey)?.agentId ?? '',
  };
}
