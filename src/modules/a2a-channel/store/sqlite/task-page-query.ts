import { sqlFilter, type SqlFilter } from '../../../../common/storage/sql-filter';
import { READ_COLUMNS } from './sqlite-task-schema';
import type { TaskPageQuery } from '../task-store.port';

/** The two statements of one ListTasks page, with their parameters. */
export interface TaskPageSql {
  /** `totalSize`: the peer's tasks that match the filters (the position of the page does not count). */
  count: SqlFilter;
  /** Whether a filter is set; without one, `count` counts every task of the peer. */
  filtered: boolean;
  /** The page itself: `limit + 1` rows, so the store can tell whether another page follows. */
  page: SqlFilter;
}

/**
 * The SQL of a ListTasks page. Every condition names the peer first and orders by what the recency index
 * (peer, updated_at[, seq as rowid]) holds, so the page is one range read of that index from its new end:
 * the keyset condition moves where the range starts, `statusTimestampAfter` where it stops. `contextId` and
 * `status` are checked on the rows the range walks. The unfiltered count and the one with only
 * `statusTimestampAfter` read the index alone (and the store keeps the unfiltered one in memory after the
 * first); `contextId` and `status` counts also read each row of the peer (docs/decisions.md#a2a-channel has
 * the figures). task-page-query.spec.ts holds both to these plans.
 */
export function taskPageSql(query: TaskPageQuery): TaskPageSql {
  const filter = sqlFilter([
    ['peer = @peer', { peer: query.peer }],
    query.contextId !== undefined && ['context_id = @contextId', { contextId: query.contextId }],
    query.state !== undefined && ['state = @state', { state: query.state }],
    query.updatedSince !== undefined && ['updated_at >= @since', { since: query.updatedSince }],
  ]);
  const where = sqlFilter([
    [filter.sql, filter.params],
    query.after && [
      '(updated_at, seq) < (@afterUpdatedAt, @afterSeq)',
      { afterUpdatedAt: query.after.updatedAt, afterSeq: query.after.seq },
    ],
  ]);
  return {
    count: { sql: `SELECT COUNT(*) AS n FROM tasks WHERE ${filter.sql}`, params: filter.params },
    filtered: query.contextId !== undefined || query.state !== undefined || query.updatedSince !== undefined,
    page: {
      sql: `SELECT ${READ_COLUMNS} FROM tasks WHERE ${where.sql} ORDER BY updated_at DESC, seq DESC LIMIT @limit`,
      params: { ...where.params, limit: query.limit + 1 },
    },
  };
}
