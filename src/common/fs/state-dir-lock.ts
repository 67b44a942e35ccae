/**
 * One gateway per state directory. Two processes on one state dir corrupt each other's state: the second one's
 * restart sweep fails the first one's running A2A tasks, both append to the same transcripts. The gateway
 * therefore locks the state dir before anything reads or writes it. See
 * docs/configuration.md#one-gateway-per-state-directory and docs/decisions.md.
 *
 * The lock is the operating system's: an exclusive SQLite transaction held open on `<stateDir>/gateway.lock`
 * (a POSIX record lock on Unix, LockFileEx on Windows). The kernel decides which of two processes starting at
 * once gets it, and drops it when the holder dies however it dies, so there is no stale lock to recognise or
 * take over, and a reused pid cannot keep a state dir busy. `gateway.pid` only says who holds the lock, for
 * the error message; it is written by the holder, after it has the lock.
 *
 * A POSIX record lock belongs to the process and is dropped when the process closes any descriptor of the
 * file, so nothing in the gateway may open `gateway.lock` except through SQLite (which keeps its own
 * descriptors open while another connection of the process holds a lock).
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { openSqlite, SqliteDatabase } from '../storage/sqlite';
import { writeFileAtomic } from './atomic-write';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files';

export const STATE_DIR_LOCK_FILE = 'gateway.lock';
export const STATE_DIR_HOLDER_FILE = 'gateway.pid';

/** Who holds a state dir, as its holder wrote it to `gateway.pid`. */
export interface StateDirHolder {
  pid: number;
  hostname: string;
  /** When the holding process started (ISO 8601). */
  startedAt: string;
}

/** The state dir is locked by another gateway (of this process or another one). */
export class StateDirInUseError extends AppError {
  constructor(
    readonly stateDir: string,
    /** Undefined when the holder did not say who it is (it is just starting or just stopping). */
    readonly holder: StateDirHolder | undefined,
  ) {
    super(ErrorCode.Conflict, describeHolder(stateDir, holder));
    this.name = 'StateDirInUseError';
  }
}

export interface StateDirLock {
  readonly stateDir: string;
  /** Removes `gateway.pid` and releases the lock; call it after everything that writes the state dir stopped. Idempotent. */
  release(): Promise<void>;
}

export interface LockOptions {
  /**
   * How long a refused start waits for the holder's `gateway.pid` to name a live process: the holder writes it
   * right after taking the lock, so a start that lost a race by a millisecond may find it missing or still
   * naming the previous, dead holder.
   */
  holderWaitMs?: number;
}

/**
 * Takes the state dir (creating it when missing) or throws StateDirInUseError. Any other failure (the path is
 * a file, no permission) is an AppError naming the state dir and the cause.
 */
/** How long a start waits on SQLite's lock before it counts the state dir as taken. */
const LOCK_BUSY_WAIT_MS = 500;

export async function lockStateDir(stateDir: string, options: LockOptions = {}): Promise<StateDirLock> {
  const lockFile = path.join(stateDir, STATE_DIR_LOCK_FILE);
  let db: SqliteDatabase | undefined;
  try {
    await fs.mkdir(stateDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await createLockFile(lockFile);
    // Not 0: two gateways starting at the same instant both take SQLite's shared lock on the way to the
    // exclusive one, and without a busy wait the first could give up because of the second's passing shared
    // lock, leaving no gateway at all. SQLite answers the loser at once (it holds a shared lock and another
    // connection is ahead of it), so only a start refused by a running gateway waits this long.
    db = openSqlite(lockFile, { busyTimeoutMs: LOCK_BUSY_WAIT_MS });
    // Nothing is ever written: no journal file next to the lock, none left behind by a crash.
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db?.close();
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY') {
      throw new StateDirInUseError(stateDir, await readLiveHolder(stateDir, options.holderWaitMs ?? 2000));
    }
    throw new AppError(ErrorCode.Unavailable, `cannot lock state dir ${stateDir}: ${(err as Error).message}`);
  }
  const held = db;
  const me: StateDirHolder = { pid: process.pid, hostname: os.hostname(), startedAt: processStartedAt() };
  try {
    await writeHolder(stateDir, me);
  } catch (err) {
    held.close();
    throw new AppError(ErrorCode.Unavailable, `cannot lock state dir ${stateDir}: ${(err as Error).message}`);
  }
  let released = false;
  return {
    stateDir,
    release: async () => {
      if (released) return;
      released = true;
      // The record goes first, while the lock still guarantees that no other gateway has written its own.
      const holderFile = path.join(stateDir, STATE_DIR_HOLDER_FILE);
      const current = await readHolder(holderFile);
      if (current?.pid === me.pid && current.startedAt === me.startedAt) await fs.rm(holderFile, { force: true }).catch(() => undefined);
      held.close();
    },
  };
}

function describeHolder(stateDir: string, holder: StateDirHolder | undefined): string {
  if (!holder) return `state dir ${stateDir} is in use by another process`;
  const host = holder.hostname === os.hostname() ? '' : ` on host ${holder.hostname}`;
  return `state dir ${stateDir} is in use by pid ${holder.pid}${host}`;
}

/** Creates the (always empty) lock file with O_EXCL and mode 0600; an existing one is used as it is. */
async function createLockFile(lockFile: string): Promise<void> {
  try {
    // O_CREAT|O_EXCL fails before opening an existing file, so this never opens (and closes) a locked one.
    const handle = await fs.open(lockFile, 'wx', PRIVATE_FILE_MODE);
    await handle.close();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** Atomic (temp + fsync + rename), 0600: a reader sees the previous record or the whole new one. */
async function writeHolder(stateDir: string, holder: StateDirHolder): Promise<void> {
  await writeFileAtomic(path.join(stateDir, STATE_DIR_HOLDER_FILE), `${JSON.stringify(holder)}\n`, { newFileMode: PRIVATE_FILE_MODE });
}

async function readHolder(file: string): Promise<StateDirHolder | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  const h = parsed as Partial<StateDirHolder> | null;
  if (!h || !Number.isSafeInteger(h.pid) || h.pid! <= 0 || typeof h.hostname !== 'string' || typeof h.startedAt !== 'string')
    return undefined;
  return { pid: h.pid!, hostname: h.hostname, startedAt: h.startedAt };
}

/**
 * The gateway running on `stateDir` on this host, as its `gateway.pid` names it, or undefined when none does
 * (no record, or a record of a process that is gone). For callers outside the gateway (the CLI) that want to
 * know whether an edit will be applied by someone: it never touches the lock.
 */
export async function runningGatewayOf(stateDir: string): Promise<StateDirHolder | undefined> {
  const holder = await readHolder(path.join(stateDir, STATE_DIR_HOLDER_FILE));
  return holder && holder.hostname === os.hostname() && isAlive(holder.pid) ? holder : undefined;
}

/** The holder named in `gateway.pid` once it is a live process (or one on another host, which cannot be checked). */
async function readLiveHolder(stateDir: string, waitMs: number): Promise<StateDirHolder | undefined> {
  const file = path.join(stateDir, STATE_DIR_HOLDER_FILE);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const holder = await readHolder(file);
    if (holder && (holder.hostname !== os.hostname() || isAlive(holder.pid))) return holder;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function processStartedAt(): string {
  return new Date(Date.now() - process.uptime() * 1000).toISOString();
}
