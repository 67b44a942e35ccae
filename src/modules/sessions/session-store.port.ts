/**
 * The SessionStore port (SPEC §4.2). The embedded implementation keeps an index and JSONL transcripts
 * per agent under `<stateDir>/agents/<id>/sessions`; a distributed backend can replace it without
 * touching callers. Inject with `@Inject(SESSION_STORE)`.
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
  /** File name stem of the transcript (`<sessionId>.jsonl`). */
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

export interface SessionCreateOptions {
  label?: string;
  spawnedBy?: string;
  deliveryContext?: DeliveryContext;
}

export interface SessionStore {
  get(sessionKey: string): Promise<SessionEntry | undefined>;
  /** Returns the entry, creating it (and its empty transcript) when missing. */
  getOrCreate(sessionKey: string, init?: SessionCreateOptions): Promise<SessionEntry>;
  /** Most recently updated first. */
  list(filter?: SessionListFilter): Promise<SessionEntry[]>;
  /** Labels are unique per agent (1..512 chars); a taken label is an error naming the holder. */
  setLabel(sessionKey: string, label: string): Promise<SessionEntry>;
  /** `sessions.resolve({label, agentId})`: the key holding that label, if any. */
  resolveLabel(agentId: string, label: string): Promise<string | undefined>;
  /** True when `targetKey` was spawned by `ancestorKey`, directly or transitively. */
  isSpawnedBy(targetKey: string, ancestorKey: string): Promise<boolean>;
  /** Appends in call order per session; creates the session when missing. */
  append(sessionKey: string, line: NewTranscriptLine): Promise<TranscriptLine>;
  /** The last `limit` lines (all when unset); torn/corrupt lines are skipped and reported in warnings. */
  history(sessionKey: string, options?: { limit?: number }): Promise<{ lines: TranscriptLine[]; warnings: string[] }>;
}
