/**
 * The slice of better-sqlite3 the memory index uses. The package ships no type declarations, and a global
 * `declare module` could clash with other modules that type it their own way, so it is typed locally.
 */
export interface Statement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface Database {
  readonly open: boolean;
  prepare(sql: string): Statement;
  exec(sql: string): void;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

export function openDatabase(file: string): Database {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Ctor = require('better-sqlite3') as new (file: string, options?: { timeout?: number }) => Database;
  return new Ctor(file, { timeout: 5000 });
}
