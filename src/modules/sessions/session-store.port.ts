import type { WorkOrigin } from '../../common/work-origin';
/**
 * The SessionStore port. The embedded implementation keeps sessions and their transcript lines in one SQLite
 * file in the state dir (`sessions.sqlite`); a distributed backend can replace it without touching callers.
 * Inject with `@Inject(SESSION_STORE)`. See docs/sessions.md#session-store.
 */
export const SESSION_STORE = Symbol('SESSION_STORE');

export interface DeliveryContext {
  channel?: string;
  accountId?: string;
  to?: string;
  threadId?: string;
}

export interface SessionEntry {
  sessionKey: string;
  /** Opaque id, never derived from user text: the stem of the session's JSONL export (`<sessionId>.jsonl`). */
  sessionId: string;
  agentId: string;
  label?: string;
  /** Key of the session that spawned this one (sessions_spawn). */
  spawnedBy?: string;
  createdAt: string;
  updatedAt: string;
  deliveryContext?: DeliveryContext;
}

export interface InterSessionProvenance {
  kind: 'inter_session';
  sourceSessionKey: string;
  sourceChannel?: string;
  sourceTool: string;
  /** Agent-to-agent loop guard: the chain this message belongs to and its hop count. */
  chainId?: string;
  hop?: number;
  /**
   * The W3C trace context of the step that sent the message (docs/telemetry.md#across-sessions), so the run that
   * answers it — later, on another lane — joins the sender's trace. Only while tracing is on.
   */
  traceparent?: string;
  tracestate?: string;
  /**
   * Where the work this message belongs to started (docs/usage.md#budgets-follow-the-work): carried down every hop, so
   * the run that answers spends from the origin's budgets as well as its own.
   */
  workOrigin?: WorkOrigin;
}

export type TranscriptRole = 'user' | 'assistant' | 'tool' | 'system';

export interface TranscriptLine {
  id: string;
  ts: string;
  role: TranscriptRole;
  text: string;
  toolCalls?: unknown[];
  provenance?: InterSessionProvenance;
  runId?: string;
  /** Free-form step details (who ran, tokens, duration, outcome) for the admin history view. */
  meta?: Record<string, unknown>;
}

export type NewTranscriptLine = Omit<TranscriptLine, 'id' | 'ts'> & Partial<Pick<TranscriptLine, 'id' | 'ts'>>;

export interface SessionListFilter {
  agentId?: string;
  label?: string;
  /** Only sessions updated within the last N minutes. */
  activeMinutes?: number;
  limit?: number;
}

export interface SessionPageFilter extends SessionListFilter {
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

export interface SessionPage {
  sessions: SessionEntry[];
  /** Present when more sessions follow; pass it as `cursor` for the next page. */
  nextCursor?: string;
}

/** One session's transcript as memory sees it: `version` changes whenever a line is appended. */
export interface TranscriptVersion {
  sessionKey: string;
  sessionId: string;
  /** Epoch ms of the last append (or of creation). */
  updatedAt: number;
  /** 0 for an empty transcript; grows with every append. */
  version: number;
}

/** Told after a transcript line is committed. */
export interface TranscriptAppended {
  agentId: string;
  sessionKey: string;
  sessionId: string;
}

export interface SessionCreateOptions {
  label?: string;
  spawnedBy?: string;
  deliveryContext?: DeliveryContext;
}

export interface SessionHistoryOptions {
  limit?: number;
  /**
   * `false`: drop `tool` lines and strip `toolCalls` before applying `limit` (the sessions_history view).
   * Unset or `true`: the raw transcript.
   */
  includeTools?: boolean;
}

export interface SessionHistory {
  lines: TranscriptLine[];
  /** One per skipped line, e.g. `line 7: incomplete last line (interrupted write); skipped`. */
  warnings: string[];
}

/**
 * Errors are AppErrors: 400 for a malformed key/label/agent id/limit, 404 for a missing session where
 * one is required, 409 for a label held by another session of the same agent. Keys are canonicalized
 * (lowercased); entries always carry the canonical key.
 */
export interface SessionStore {
  get(sessionKey: string): Promise<SessionEntry | undefined>;
  /**
   * Returns the entry, creating it (and its empty transcript) when missing; resolves only once a new entry
   * is on disk. On an existing session a given `label` or `deliveryContext` replaces the stored one (a taken
   * label is a 409); `spawnedBy` is fixed at creation.
   */
  getOrCreate(sessionKey: string, init?: SessionCreateOptions): Promise<SessionEntry>;
  /** Most recently updated first; `limit` [50]. Without `agentId`: the sessions of all configured agents. */
  list(filter?: SessionListFilter): Promise<SessionEntry[]>;
  /** `list` a page at a time: follow `nextCursor`; sessions created meanwhile never repeat or skip an entry. */
  page(filter?: SessionPageFilter): Promise<SessionPage>;
  /** Labels are unique per agent (1..512 chars, trimmed); a taken label is an error naming the holder; 404 for an unknown session. */
  setLabel(sessionKey: string, label: string): Promise<SessionEntry>;
  /** `sessions.resolve({label, agentId})`: the key holding that label, if any. */
  resolveLabel(agentId: string, label: string): Promise<string | undefined>;
  /** True when `targetKey` was spawned by `ancestorKey`, directly or transitively. */
  isSpawnedBy(targetKey: string, ancestorKey: string): Promise<boolean>;
  /**
   * Appends in call order per session; creates the session when missing. With `create`, the session is
   * created or updated exactly as getOrCreate(sessionKey, create) would, in the same commit as the line (a
   * run's first line: one write instead of two); a taken label fails the append and nothing is written.
   */
  append(sessionKey: string, line: NewTranscriptLine, create?: SessionCreateOptions): Promise<TranscriptLine>;
  /**
   * The last `limit` lines (all when unset); torn/corrupt lines are skipped and reported in warnings.
   * Waits for appends already requested for this session. Throws 404 when the session does not exist.
   */
  history(sessionKey: string, options?: SessionHistoryOptions): Promise<SessionHistory>;
  /** The whole transcript as JSONL, oldest first, in chunks of whole lines. Throws 404 for an unknown session. */
  exportTranscript(sessionKey: string): AsyncIterable<string>;
  /** Every session of one agent with its transcript version (memory collections over sessions). */
  transcriptVersions(agentId: string): Promise<TranscriptVersion[]>;
  /** One session of `agentId` by its sessionId, with its transcript version; undefined when there is none. */
  transcriptVersion(agentId: string, sessionId: string): Promise<TranscriptVersion | undefined>;
  /** Calls `listener` after each committed append; returns the unsubscribe function. */
  onAppend(listener: (event: TranscriptAppended) => void): () => void;
}
