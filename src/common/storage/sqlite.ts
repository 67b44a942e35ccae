import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import * as path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../fs/private-files';

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
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

export interface SqliteDatabase {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

type SqliteConstructor = new (file: string, options?: { timeout?: number; readonly?: boolean; fileMustExist?: boolean }) => SqliteDatabase;

/**
 * Opens (creating) a database file; waits up to `busyTimeoutMs` (5 s) for a lock held by another connection. A new file and
 * its directory are created private to the gateway's user (see private-files.ts): SQLite gives the -wal
 * and -shm files the mode of the database file, so creating that one 0600 covers all three.
 */
export function openSqlite(file: string, { busyTimeoutMs = 5000 }: { busyTimeoutMs?: number } = {}): SqliteDatabase {
  createPrivateDatabaseFile(file);
  return new (sqliteConstructor())(file, { timeout: busyTimeoutMs });
}

/**
 * Creates a missing database file (and its directory) private to the gateway's user, for a file a
 * connection opens with ATTACH, which would create it with the default mode.
 */
export function createPrivateDatabaseFile(file: string): void {
  // ':memory:' and '' are databases without a file.
  if (file === ':memory:' || file === '') return;
  mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  // Only a missing file is touched: closing a descriptor of a database another connection of this process
  // has open would drop that connection's POSIX locks. 'wx' never opens an existing file.
  if (existsSync(file)) return;
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/**
 * Opens an existing database for reading only (the CLI reading a running gateway's state: WAL lets it read
 * while the gateway writes). A missing file is an error, never a new empty database.
 */
export function openSqliteReadOnly(file: string, { busyTimeoutMs = 5000 }: { busyTimeoutMs?: number } = {}): SqliteDatabase {
  return new (sqliteConstructor())(file, { timeout: busyTimeoutMs, readonly: true, fileMustExist: true });
}

function sqliteConstructor(): SqliteConstructor {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('better-sqlite3') as SqliteConstructor;
}

/**
 * The settings every durable store of the gateway runs with. WAL + synchronous=NORMAL: a commit is one
 * append to the WAL without fsync, so it survives the process being killed at any point (only a power loss
 * can drop the last commits), and readers never block the writer. `cacheMiB` (SQLite's default is 2): the
 * stores on the request path take more, so the indexes of a million rows stay in memory and an insert does
 * not wait for page reads.
 */
export function useDurableStoreSettings(db: SqliteDatabase, { cacheMiB = 2 }: { cacheMiB?: number } = {}): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`cache_size = -${Math.round(cacheMiB * 1024)}`);
}

/** Page cache of the stores every message writes to (sessions, A2A tasks). */
export const REQUEST_PATH_CACHE_MIB = 32;
