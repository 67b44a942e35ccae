import type { WorkOrigin } from '../../common/work-origin';

/**
 * The usage store: one row per model call that reported usage (docs/usage.md), in `<stateDir>/usage.sqlite`
 * (sqlite-usage.store.ts) or, with `gateway.state.backend: "postgres"`, one table every replica appends to
 * (pg-usage.store.ts). Rows are appended in batches (one transaction per event-loop turn's calls); a read waits for
 * the rows this process appended before it.
 */
export interface UsageRow {
  /** When the call answered, ms since the epoch. */
  at: number;
  agentId: string;
  sessionKey: string;
  runId: string;
  /** `provider/model` that answered. */
  model: string;
  provider: string;
  /**
   * The channel the run's message came in on (`a2a`, `openai`, `mcp`, `http`, a chat channel), `agent` for a run another
   * session's tool started, `internal` for the rest.
   */
  channel: string;
  /** Who on that channel: the A2A peer, the OpenAI/MCP key name, the channel account, the sending session; null when none. */
  caller: string | null;
  /** Every prompt token, the cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** The part of `inputTokens` the provider read from its prompt cache. */
  cachedTokens: number;
  /** Priced from the model's `cost` entry; null when the model has no price. */
  cost: number | null;
  /**
   * Where the work the call belongs to started (docs/usage.md#budgets-follow-the-work): the first run and whom it was
   * for. Absent in rows written before origins were recorded; such rows count for no origin's budget.
   */
  origin?: UsageOrigin;
}

/** The origin columns of a row: the WorkOrigin without what a peer carried in. */
export type UsageOrigin = Omit<WorkOrigin, 'carried'>;

/** The row's origin as the stores' `origin_*` columns (all null without one). */
export function originColumns(row: UsageRow): {
  originRunId: string | null;
  originAgentId: string | null;
  originSessionKey: string | null;
  originChannel: string | null;
  originCaller: string | null;
} {
  const o = row.origin;
  return {
    originRunId: o?.runId ?? null,
    originAgentId: o?.agentId ?? null,
    originSessionKey: o?.sessionKey ?? null,
    originChannel: o?.channel ?? null,
    originCaller: o?.caller ?? null,
  };
}

export const USAGE_GROUPS = ['agent', 'session', 'peer', 'key', 'account', 'model'] as const;
export type UsageGroupBy = (typeof USAGE_GROUPS)[number];
export const USAGE_BUCKETS = ['hour', 'day'] as const;
export type UsageBucket = (typeof USAGE_BUCKETS)[number];
export const BUCKET_MS: Readonly<Record<UsageBucket, number>> = { hour: 3_600_000, day: 86_400_000 };

export interface UsageQuery {
  groupBy: UsageGroupBy;
  /** Inclusive, ms. */
  from: number;
  /** Exclusive, ms. */
  to: number;
  bucket?: UsageBucket;
  limit: number;
  /** Groups to skip (the page token's position). */
  offset: number;
}

export interface UsageGroup {
  group: string;
  /** The bucket's start (ms), when the query asked for buckets. */
  bucket?: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  /** The priced calls' cost; null when none of the group's calls was priced. */
  cost: number | null;
  /** Calls of the group whose model has no price (their tokens count, their cost does not). */
  unpricedCalls: number;
}

/** Which rows a group takes, and the name each row is grouped under. Channels that name no peer, key or account have none. */
const GROUP_SQL: Readonly<Record<UsageGroupBy, { key: string; where: string }>> = {
  agent: { key: 'agent_id', where: '1 = 1' },
  session: { key: 'session_key', where: '1 = 1' },
  model: { key: 'model', where: '1 = 1' },
  peer: { key: 'caller', where: "channel = 'a2a' AND caller IS NOT NULL" },
  key: { key: "channel || ':' || caller", where: "channel IN ('openai', 'mcp') AND caller IS NOT NULL" },
  account: {
    key: "channel || ':' || caller",
    where: "channel NOT IN ('a2a', 'openai', 'mcp', 'agent', 'internal') AND caller IS NOT NULL",
  },
};

/**
 * The grouped query both stores run (`@from`, `@to`, `@limit`, `@offset`): every name in it comes from the fixed
 * tables above, never from the caller. Ordered by bucket, then group, so pages are stable.
 */
export function usageGroupSql(table: string, query: Pick<UsageQuery, 'groupBy' | 'bucket'>, floatCast = ''): string {
  const { key, where } = GROUP_SQL[query.groupBy];
  const bucket = query.bucket ? `(at / ${BUCKET_MS[query.bucket]}) * ${BUCKET_MS[query.bucket]}` : '0';
  return `SELECT ${key} AS grp, ${bucket} AS bucket, COUNT(*) AS calls,
      SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens, SUM(cached_tokens) AS cached_tokens,
      SUM(cost)${floatCast} AS cost, COUNT(cost) AS priced
    FROM ${table} WHERE at >= @from AND at < @to AND ${where}
    GROUP BY 1, 2 ORDER BY 2, 1 LIMIT @limit OFFSET @offset`;
}

/** A row of `usageGroupSql` as a group. */
export function toUsageGroup(row: Record<string, unknown>, bucketed: boolean): UsageGroup {
  const calls = Number(row.calls);
  return {
    group: String(row.grp),
    ...(bucketed ? { bucket: Number(row.bucket) } : {}),
    calls,
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    cachedTokens: Number(row.cached_tokens),
    cost: row.cost === null || row.cost === undefined ? null : Number(row.cost),
    unpricedCalls: calls - Number(row.priced),
  };
}

/**
 * The rows a budget counts: one column equal to one id (the channel among `channels`, for a caller), since `from`.
 * `origin` reads the row's origin columns instead (`origin_agent_id`, `origin_channel`, …): the rows of the work that
 * started there, in whichever run, agent or session they were made.
 */
export interface SpentFilter {
  column: 'agent_id' | 'session_key' | 'caller' | 'run_id';
  value: string;
  channels?: readonly string[];
  from: number;
  origin?: boolean;
}

export interface Spent {
  tokens: number;
  cost: number;
  /** The oldest counted row's time (a rolling window frees its tokens from then on); undefined when none. */
  oldest?: number;
}

/** The query both stores run for `spent` (the column is one of the fixed names above, never the caller's). */
export function spentSql(table: string, filter: SpentFilter): string {
  const prefix = filter.origin ? 'origin_' : '';
  const channels = filter.channels?.length ? ` AND ${prefix}channel IN (${filter.channels.map((_, i) => `@ch${i}`).join(', ')})` : '';
  return `SELECT COALESCE(SUM(input_tokens + output_tokens), 0) AS tokens, COALESCE(SUM(cost), 0) AS cost, MIN(at) AS oldest
    FROM ${table} WHERE ${prefix}${filter.column} = @value AND at >= @from${channels}`;
}

export function spentParams(filter: SpentFilter): Record<string, unknown> {
  const params: Record<string, unknown> = { value: filter.value, from: filter.from };
  filter.channels?.forEach((channel, i) => (params[`ch${i}`] = channel));
  return params;
}

export function toSpent(row: Record<string, unknown> | undefined): Spent {
  const oldest = row?.oldest === null || row?.oldest === undefined ? undefined : Number(row.oldest);
  return { tokens: Number(row?.tokens ?? 0), cost: Number(row?.cost ?? 0), ...(oldest !== undefined ? { oldest } : {}) };
}

/**
 * What the calls of one caller on one channel cost one agent: the spend of the way the work came in (a peer's
 * conversations, a key's requests, an account's messages, a session's sessions_send), which the topology puts on
 * its edges. Rows without a caller (`internal`, a channel that names none) are not routes.
 */
export interface RouteSpend {
  channel: string;
  caller: string;
  agentId: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** The priced calls' cost; null when none was priced. */
  cost: number | null;
}

/**
 * At most this many routes are read: each is a configured caller (peer, key, account) or a sending session, times the
 * agents it reached, so a real window has far fewer; the bound keeps one read small whatever the rows hold.
 */
export const ROUTE_SPEND_LIMIT = 10_000;

/** The query both stores run for `routeSpend` (`@from`, `@to`, `@limit`), in a stable order. */
export function routeSpendSql(table: string, floatCast = ''): string {
  return `SELECT channel, caller, agent_id, COUNT(*) AS calls, SUM(input_tokens) AS input_tokens,
      SUM(output_tokens) AS output_tokens, SUM(cost)${floatCast} AS cost
    FROM ${table} WHERE at >= @from AND at < @to AND caller IS NOT NULL
    GROUP BY channel, caller, agent_id ORDER BY channel, caller, agent_id LIMIT @limit`;
}

export function toRouteSpend(row: Record<string, unknown>): RouteSpend {
  return {
    channel: String(row.channel),
    caller: String(row.caller),
    agentId: String(row.agent_id),
    calls: Number(row.calls),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    cost: row.cost === null || row.cost === undefined ? null : Number(row.cost),
  };
}

/** Injection token of the module's UsageStore (the SQLite or the PostgreSQL one, as `gateway.state` says). */
export const USAGE_STORE = Symbol('USAGE_STORE');

export interface UsageStore {
  /** Queues the row; it is written with the other rows of this event-loop turn, in one transaction. */
  append(row: UsageRow): void;
  /** Resolves once every row appended so far is written (a failed batch is logged and dropped, not retried). */
  flush(): Promise<void>;
  /** One page of groups (and buckets) over [from, to). */
  groups(query: UsageQuery): Promise<UsageGroup[]>;
  /** What the rows of a budget add up to (this process's pending rows written first). */
  spent(filter: SpentFilter): Promise<Spent>;
  /** The spend over [from, to) of every (channel, caller, agent) whose caller is named, at most `ROUTE_SPEND_LIMIT` of them. */
  routeSpend(from: number, to: number): Promise<RouteSpend[]>;
  close(): Promise<void>;
}
