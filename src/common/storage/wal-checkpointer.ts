import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './sqlite';

/**
 * How often the background connection copies the WAL back into the database file. Measured with the A2A
 * bench: every 10 ms cost 245 µs of server CPU per message, every 100 ms 196 µs (each pass pays an fsync
 * and re-reads the WAL index); checkpoints on the main connection, SQLite's default, 224 µs.
 */
const CHECKPOINT_EVERY_MS = 100;
/**
 * WAL pages after which a commit on the main connection checkpoints by itself: a backstop for a checkpointer
 * that cannot keep up, so the WAL stays bounded (64 MiB with 4 KiB pages).
 */
const BACKSTOP_PAGES = 16_384;

// Plain JavaScript, run with `eval`, so the same code works from the compiled build and from the TypeScript
// sources (tests, benches) without a loader in the worker.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 0 });
db.pragma('synchronous = NORMAL');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    // SQLITE_BUSY: the main connection is checkpointing itself; the next pass catches up.
    if (err && err.code !== 'SQLITE_BUSY') parentPort.postMessage({ error: String(err && err.message) });
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Checkpoints a WAL database from a worker thread. A checkpoint copies committed pages into the database
 * file and fsyncs it — milliseconds to tens of milliseconds on a real disk — and SQLite runs it inside
 * whichever commit crosses the threshold. On the main connection that commit would hold the event loop (and
 * every request waiting on it) for that long; in a worker, commits only append to the WAL and the loop never
 * waits for an fsync. A passive checkpoint never blocks the writer.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private stopping = false;

  /** Hands checkpoints of `db` (open on `file`) to a worker; `onError` hears of a checkpoint that failed. */
  constructor(db: SqliteDatabase, file: string, onError: (message: string) => void) {
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, everyMs: CHECKPOINT_EVERY_MS, driver: require.resolve('better-sqlite3') },
    });
    this.worker.on('message', (m: { error?: string }) => m.error && onError(m.error));
    this.worker.on('error', (err) => onError(err.message));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    // A store nobody closed must not keep the process alive.
    this.worker.unref();
  }

  /** Stops the worker and closes its connection; the owner checkpoints and closes its own afterwards. */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      // Unref'd so a forgotten store cannot keep a process alive; while stopping, the wait for its exit must
      // (else a process with nothing else to do exits mid-shutdown, before the database is closed).
      this.worker.ref();
      this.worker.postMessage('stop');
    }
    return this.exited;
  }
}
