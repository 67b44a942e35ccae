/**
 * The part of better-sqlite3 the gateway uses (A2A task store, memory index), typed here because the
 * package ships no type declarations — and a global `declare module` could clash with another typing of it.
 */
export interface SqliteRunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

export interface SqliteStatement {
  run(...params: unknown[]): SqliteRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface SqliteDatabase {
  readonly open: boolean;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

type SqliteConstructor = new (file: string, options?: { timeout?: number }) => SqliteDatabase;

/** Opens (creating) a database file; waits up to `busyTimeoutMs` (5 s) for a lock held by another connection. */
export function openSqlite(file: string, { busyTimeoutMs = 5000 }: { busyTimeoutMs?: number } = {}): SqliteDatabase {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as SqliteConstructor;
  return new Database(file, { timeout: busyTimeoutMs });
}
