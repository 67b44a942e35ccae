import { Logger } from '@nestjs/common';
import * as path from 'node:path';
import { openSqlite, useDurableStoreSettings, type SqliteDatabase } from '../../common/storage/sqlite';
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

export function usageDatabasePath(stateDir: string): string {
  return path.join(stateDir, 'usage.sqlite');
}

const INSERT = `INSERT INTO usage_calls
  (at, agent_id, session_key, run_id, model, provider, channel, caller, input_tokens, output_tokens, cached_tokens, cost,
   origin_run_id, origin_agent_id, origin_session_key, origin_channel, origin_caller)
  VALUES (@at, @agentId, @sessionKey, @runId, @model, @provider, @channel, @caller, @inputTokens, @outputTokens, @cachedTokens, @cost,
   @originRunId, @originAgentId, @originSessionKey, @originChannel, @originCaller)`;

/** The columns of the work's origin (docs/usage.md#budgets-follow-the-work), added to a file an earlier version wrote. */
const ORIGIN_COLUMNS = ['origin_run_id', 'origin_agent_id', 'origin_session_key', 'origin_channel', 'origin_caller'];

/**
 * `<stateDir>/usage.sqlite` (0600): one row per model call. The calls of one event-loop turn are inserted in one
 * transaction after it (a model call never waits for its row); a read writes what is pending first, so it sees every
 * call this process made before it.
 */
export class SqliteUsageStore implements UsageStore {
  private readonly logger = new Logger('usage');
  private readonly db: SqliteDatabase;
  private pending: UsageRow[] = [];
  private scheduled = false;

  constructor(stateDir: string) {
    this.db = openSqlite(usageDatabasePath(stateDir));
    useDurableStoreSettings(this.db);
    this.db.exec(`CREATE TABLE IF NOT EXISTS usage_calls (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      at INTEGER NOT NULL,
      agent_id TEXT NOT NULL,
      session_key TEXT NOT NULL,
      run_id TEXT NOT NULL,
      model TEXT NOT NULL,
      provider TEXT NOT NULL,
      channel TEXT NOT NULL,
      caller TEXT,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      cached_tokens INTEGER NOT NULL,
      cost REAL
    );
    CREATE INDEX IF NOT EXISTS usage_calls_by_time ON usage_calls (at);
    CREATE INDEX IF NOT EXISTS usage_calls_by_agent ON usage_calls (agent_id, at);
    CREATE INDEX IF NOT EXISTS usage_calls_by_session ON usage_calls (session_key, at);
    CREATE INDEX IF NOT EXISTS usage_calls_by_caller ON usage_calls (channel, caller, at);
    CREATE INDEX IF NOT EXISTS usage_calls_by_caller_only ON usage_calls (caller, at);
    CREATE INDEX IF NOT EXISTS usage_calls_by_run ON usage_calls (run_id);`);
    const columns = new Set(
      (this.db.prepare('SELECT name FROM pragma_table_info(?)').all('usage_calls') as Array<{ name: string }>).map((c) => c.name),
    );
    for (const column of ORIGIN_COLUMNS) if (!columns.has(column)) this.db.exec(`ALTER TABLE usage_calls ADD COLUMN ${column} TEXT`);
    this.db.exec(`CREATE INDEX IF NOT EXISTS usage_calls_by_origin_run ON usage_calls (origin_run_id);
    CREATE INDEX IF NOT EXISTS usage_calls_by_origin_agent ON usage_calls (origin_agent_id, at);
    CREATE INDEX IF NOT EXISTS usage_calls_by_origin_session ON usage_calls (origin_session_key, at);
    CREATE INDEX IF NOT EXISTS usage_calls_by_origin_caller ON usage_calls (origin_caller, at);`);
  }

  append(row: UsageRow): void {
    this.pending.push(row);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.write());
  }

  flush(): Promise<void> {
    this.write();
    return Promise.resolve();
  }

  groups(query: UsageQuery): Promise<UsageGroup[]> {
    this.write();
    const rows = this.db.prepare(usageGroupSql('usage_calls', query)).all({
      from: query.from,
      to: query.to,
      limit: query.limit,
      offset: query.offset,
    }) as Array<Record<string, unknown>>;
    return Promise.resolve(rows.map((row) => toUsageGroup(row, query.bucket !== undefined)));
  }

  spent(filter: SpentFilter): Promise<Spent> {
    this.write();
    return Promise.resolve(
      toSpent(this.db.prepare(spentSql('usage_calls', filter)).get(spentParams(filter)) as Record<string, unknown> | undefined),
    );
  }

  routeSpend(from: number, to: number): Promise<RouteSpend[]> {
    this.write();
    const rows = this.db.prepare(routeSpendSql('usage_calls')).all({ from, to, limit: ROUTE_SPEND_LIMIT });
    return Promise.resolve((rows as Array<Record<string, unknown>>).map(toRouteSpend));
  }

  close(): Promise<void> {
    this.write();
    if (this.db.open) this.db.close();
    return Promise.resolve();
  }

  /** Inserts what is pending in one transaction. */
  private write(): void {
    this.scheduled = false;
    if (!this.pending.length || !this.db.open) return;
    const rows = this.pending;
    this.pending = [];
    try {
      const insert = this.db.prepare(INSERT);
      this.db.transaction(() => {
        for (const { origin: _origin, ...row } of rows) insert.run({ ...row, ...originColumns({ ...row, origin: _origin }) });
      })();
    } catch (err) {
      this.logger.error(`${rows.length} model call(s) of usage could not be stored: ${(err as Error).message}`);
    }
  }
}
