/**
 * Building the WHERE clause of a listing from its optional filters, and cutting a keyset page, the same way
 * in every store (sessions, A2A tasks).
 */

/** One condition (SQL naming its parameters as `@name`) with its parameters; a falsy entry is a filter not set. */
export type SqlCondition = readonly [sql: string, params: Readonly<Record<string, unknown>>] | false | undefined;

export interface SqlFilter {
  /** The conditions that are set, AND-joined; `1` when none is, so it can always follow WHERE. */
  sql: string;
  params: Record<string, unknown>;
}

export function sqlFilter(conditions: readonly SqlCondition[]): SqlFilter {
  const set = conditions.filter((c): c is Exclude<SqlCondition, false | undefined> => !!c);
  return {
    sql: set.length ? set.map(([sql]) => sql).join(' AND ') : '1',
    params: Object.assign({}, ...set.map(([, params]) => params)) as Record<string, unknown>,
  };
}

/**
 * A page from rows read with `LIMIT limit + 1`: the first `limit`, and the last of them when more follow
 * (the position the next page starts after).
 */
export function keysetPage<T>(rows: T[], limit: number): { rows: T[]; last?: T } {
  if (rows.length <= limit) return { rows };
  const page = rows.slice(0, limit);
  return { rows: page, last: page[page.length - 1] };
}
