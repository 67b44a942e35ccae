import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { createPostgresPool, type Migration, migrate, positional, postgresStartError } from '../../common/storage/postgres';
import {
  originColumns,
  ROUTE_SPEND_LIMIT,
  routeSpendSql,
  spentParams,
  spentSql,
  toRouteSpend,
  toSpent,
  toUsageGroup,
  usageGroupSql,
  type RouteSpend,
  type Spent,
  type SpentFilter,
  type UsageGroup,
  type UsageQuery,
  type UsageRow,
  type UsageStore,
} from './usage-store.port';

const USAGE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'model call usage',
    sql: `
CREATE TABLE usage_calls (
  seq BIGSERIAL PRIMARY KEY,
  at BIGINT NOT NULL,
  agent_id TEXT NOT NULL,
  session_key TEXT NOT NULL,
  run_id TEXT NOT NULL,
  model TEXT NOT NULL,
  provider TEXT NOT NULL,
  channel TEXT NOT NULL,
  caller TEXT,
  input_tokens BIGINT NOT NULL,
  output_tokens BIGINT NOT NULL,
  cached_tokens BIGINT NOT NULL,
  cost DOUBLE PRECISION
);
CREATE INDEX usage_calls_by_time ON usage_calls (at);
CREATE INDEX usage_calls_by_agent ON usage_calls (agent_id, at);
CREATE INDEX usage_calls_by_session ON usage_calls (session_key, at);
CREATE INDEX usage_calls_by_caller ON usage_calls (channel, caller, at);`,
  },
  {
    version: 2,
    name: 'budget lookups',
    sql: `
CREATE INDEX usage_calls_by_caller_only ON usage_calls (caller, at);
CREATE INDEX usage_calls_by_run ON usage_calls (run_id);`,
  },
  {
    version: 3,
    name: 'the origin of the work',
    sql: `
ALTER TABLE usage_calls
  ADD COLUMN origin_run_id TEXT,
  ADD COLUMN origin_agent_id TEXT,
  ADD COLUMN origin_session_key TEXT,
  ADD COLUMN origin_channel TEXT,
  ADD COLUMN origin_caller TEXT;
CREATE INDEX usage_calls_by_origin_run ON usage_calls (origin_run_id);
CREATE INDEX usage_calls_by_origin_agent ON usage_calls (origin_agent_id, at);
CREATE INDEX usage_calls_by_origin_session ON usage_calls (origin_session_key, at);
CREATE INDEX usage_calls_by_origin_caller ON usage_calls (origin_caller, at);`,
  },
];

const COLUMNS = [
  'at',
  'agent_id',
  'session_key',
  'run_id',
  'model',
  'provider',
  'channel',
  'caller',
  'input_tokens',
  'output_tokens',
  'cached_tokens',
  'cost',
  'origin_run_id',
  'origin_agent_id',
  'origin_session_key',
  'origin_channel',
  'origin_caller',
];
const TYPES = [
  ...['bigint', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'bigint', 'bigint', 'bigint', 'float8'],
  ...['text', 'text', 'text', 'text', 'text'],
];
/** One statement per batch, whatever its size: each column as an array, unnested into rows. */
const INSERT = `INSERT INTO usage_calls (${COLUMNS.join(', ')})
  SELECT * FROM unnest(${TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;

/**
 * The usage of every replica in one PostgreSQL table (scope `usage`). A replica's calls of one event-loop turn are one
 * INSERT of arrays; reads count every replica's rows (this replica's pending ones written first).
 */
export class PgUsageStore implements UsageStore {
  private readonly logger = new Logger('usage');
  private pending: UsageRow[] = [];
  private writing: Promise<void> = Promise.resolve();
  private scheduled = false;

  private constructor(private readonly pool: Pool) {}

  /** Connects and applies the migrations; a server it cannot reach fails here, naming the server only. */
  static async open(url: string): Promise<PgUsageStore> {
    const pool = createPostgresPool(url, { max: 4 });
    try {
      await migrate(pool, 'usage', USAGE_MIGRATIONS);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw postgresStartError(url, 'the usage store could not start', err);
    }
    return new PgUsageStore(pool);
  }

  append(row: UsageRow): void {
    this.pending.push(row);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  /** Writes what is pending after the batch before it (batches stay in order). */
  flush(): Promise<void> {
    this.scheduled = false;
    if (this.pending.length) {
      const rows = this.pending;
      this.pending = [];
      this.writing = this.writing.then(() => this.insert(rows));
    }
    return this.writing;
  }

  async groups(query: UsageQuery): Promise<UsageGroup[]> {
    await this.flush();
    const sql = positional(usageGroupSql('usage_calls', query, '::float8'), {
      from: query.from,
      to: query.to,
      limit: query.limit,
      offset: query.offset,
    });
    const { rows } = await this.pool.query(sql.text, sql.values);
    return (rows as Array<Record<string, unknown>>).map((row) => toUsageGroup(row, query.bucket !== undefined));
  }

  async spent(filter: SpentFilter): Promise<Spent> {
    await this.flush();
    const sql = positional(spentSql('usage_calls', filter).replace('SUM(cost), 0)', 'SUM(cost), 0)::float8'), spentParams(filter));
    const { rows } = await this.pool.query(sql.text, sql.values);
    return toSpent((rows as Array<Record<string, unknown>>)[0]);
  }

  async routeSpend(from: number, to: number): Promise<RouteSpend[]> {
    await this.flush();
    const sql = positional(routeSpendSql('usage_calls', '::float8'), { from, to, limit: ROUTE_SPEND_LIMIT });
    const { rows } = await this.pool.query(sql.text, sql.values);
    return (rows as Array<Record<string, unknown>>).map(toRouteSpend);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.pool.end();
  }

  private async insert(rows: UsageRow[]): Promise<void> {
    const columns: unknown[][] = COLUMNS.map(() => []);
    for (const r of rows) {
      const o = originColumns(r);
      const values = [
        r.at,
        r.agentId,
        r.sessionKey,
        r.runId,
        r.model,
        r.provider,
        r.channel,
        r.caller,
        r.inputTokens,
        r.outputTokens,
        r.cachedTokens,
        r.cost,
        o.originRunId,
        o.originAgentId,
        o.originSessionKey,
        o.originChannel,
        o.originCaller,
      ];
      values.forEach((value, i) => columns[i].push(value));
    }
    try {
      await this.pool.query(INSERT, columns);
    } catch (err) {
      this.logger.error(`${rows.length} model call(s) of usage could not be stored: ${(err as Error).message}`);
    }
  }
}
