import * as path from 'node:path';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { FSWatcher, watch } from 'chokidar';
import { ConfigStore } from './config.store';
import type { RuntimeSnapshot } from './config.types';
import { FileStamp, statStamp } from './pipeline/file-stamp';

/** How long a file must stop growing before it counts as written (docs/configuration.md#7-hot-reload). */
export const WRITE_STABILITY_MS = 200;
/** How often chokidar re-checks the size of a file it waits on (its awaitWriteFinish.pollInterval). */
const WRITE_STABILITY_POLL_MS = 50;
/** Period of the stat backstop (docs/configuration.md#7-hot-reload). */
export const POLL_INTERVAL_MS = 1000;

/**
 * Watches the paths the served snapshot was read through (`watchPaths`: openclaw.json and every `$include`
 * target, as written and as resolved); after the write has settled and the debounce has passed, asks the
 * ConfigStore to reload. The set follows every snapshot the store serves, whatever its revision: moving a
 * section into an included file keeps the revision but makes that file the one an edit goes to. Directories
 * are watched rather than files so that editors which save by writing a new file and renaming it over the
 * old one are followed.
 *
 * chokidar can lose an event (a chmod right before a rename-over save is enough), so a backstop runs next to
 * it: every POLL_INTERVAL_MS it stats each watched file and compares the stamp (device, inode, size, mtime,
 * ctime) with the one the served snapshot was read from, or with the last one it acted on. A difference
 * schedules the same debounced reload chokidar does; nothing is read unless a stamp changed, and a rewrite
 * with identical content ends as `unchanged` (the ConfigStore compares content hashes).
 */
@Injectable()
export class ConfigWatcher implements OnModuleDestroy {
  private readonly logger = new Logger('config-watcher');
  private watcher?: FSWatcher;
  private watchedFiles = new Set<string>();
  private watchedDirs = new Set<string>();
  /** The debounce, shared by chokidar events and the backstop: one reload per burst, whoever noticed it. */
  private timer?: NodeJS.Timeout;
  /** How the pending reload is reported: `poll` only when chokidar said nothing before it ran. */
  private pendingTrigger?: 'watch' | 'poll';
  private unsubscribe?: () => void;
  private stopped = false;
  /** chokidar is rebuilt one set of directories at a time, each time for the newest set (see watchDirectories). */
  private rewatching: Promise<void> = Promise.resolve();

  /** The backstop. `seen` is replaced wholesale whenever the store serves a snapshot; a tick then compares with it. */
  private polling = false;
  private pollTimer?: NodeJS.Timeout;
  /**
   * Watched file → the stamp to compare with. Invariant: each value was taken before a read of that file
   * that has happened or is scheduled (a snapshot's own stamps, or a stat right before a reload or a
   * scheduled one), so a change after it can never be mistaken for one already loaded.
   */
  private seen = new Map<string, FileStamp>();
  /** Ticks and the stat before each reload run one after another. */
  private stamping: Promise<void> = Promise.resolve();

  constructor(private readonly store: ConfigStore) {}

  /**
   * Starts following the files of the current snapshot (no-op when gateway.reload.mode is off). Resolves
   * once the watcher is live, so an edit made right after the gateway reports ready is not missed.
   */
  async start(): Promise<void> {
    this.unsubscribe = this.store.onServed((next) => void this.follow(next));
    await this.follow(this.store.current());
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.cancelReload();
    this.stopPolling();
    await this.watcher?.close();
    this.watcher = undefined;
  }

  /**
   * Makes `snapshot`'s paths the watched set. The set and the backstop's baseline change synchronously with
   * the swap (onServed), so no event or tick is judged against an older set; chokidar follows once rebuilt
   * (meanwhile the backstop covers the new files, their baseline being the stat taken before their read).
   */
  private follow(snapshot: RuntimeSnapshot): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const off = snapshot.config.gateway.reload.mode === 'off';
    this.watchedFiles = off ? new Set() : new Set(snapshot.watchPaths.map((p) => path.resolve(p)));
    this.seen = baseline(this.watchedFiles, snapshot.fileStamps);
    if (off) {
      this.cancelReload();
      this.stopPolling();
    } else {
      this.startPolling();
    }
    this.rewatching = this.rewatching
      .then(() => this.watchDirectories())
      .catch((err: Error) => this.logger.warn(`watcher error: ${err.message}`));
    return this.rewatching;
  }

  /**
   * Points chokidar at the directories of the files watched now. Runs one at a time and reads the set when it
   * runs, so swaps in quick succession end on the newest set, never on one an earlier rebuild started with.
   */
  private async watchDirectories(): Promise<void> {
    const dirs = new Set([...this.watchedFiles].map((f) => path.dirname(f)));
    if (this.stopped || sameSet(dirs, this.watchedDirs)) return;
    await this.watcher?.close();
    this.watcher = undefined;
    this.watchedDirs = new Set();
    if (this.stopped || !dirs.size) return;
    this.watchedDirs = dirs;
    const watcher = watch([...dirs], {
      ignoreInitial: true,
      depth: 0,
      awaitWriteFinish: { stabilityThreshold: WRITE_STABILITY_MS, pollInterval: WRITE_STABILITY_POLL_MS },
      // Only the config files themselves matter; everything else in those directories is ignored.
      ignored: (p: string) => !dirs.has(path.resolve(p)) && !this.watchedFiles.has(path.resolve(p)),
    });
    this.watcher = watcher;
    watcher.on('all', (event, file) => this.onEvent(event, file));
    watcher.on('error', (err) => this.logger.warn(`watcher error: ${(err as Error).message}`));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  private onEvent(event: string, file: string): void {
    if (!this.watchedFiles.has(path.resolve(file))) return;
    this.logger.debug(`${event} ${file}`);
    this.schedule('watch');
  }

  /**
   * chokidar events restart the debounce. The backstop joins a reload already pending (that reload stats
   * and reads after this point anyway); otherwise it waits the debounce plus chokidar's write-finish time,
   * so the event chokidar usually sends for the same save lands in the same debounce.
   */
  private schedule(trigger: 'watch' | 'poll'): void {
    if (this.stopped) return;
    const debounceMs = this.store.current().config.gateway.reload.debounceMs;
    if (trigger === 'poll') {
      if (this.timer) return;
      this.pendingTrigger = 'poll';
      this.setReloadTimer(debounceMs + WRITE_STABILITY_MS + WRITE_STABILITY_POLL_MS);
      return;
    }
    this.pendingTrigger = 'watch';
    this.setReloadTimer(debounceMs);
  }

  private setReloadTimer(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), ms);
    this.timer.unref();
  }

  private cancelReload(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pendingTrigger = undefined;
  }

  private fire(): void {
    const trigger = this.pendingTrigger ?? 'watch';
    this.timer = undefined;
    this.pendingTrigger = undefined;
    if (trigger === 'poll') this.logger.debug('reloading: the stat backstop saw a change no watcher event reported');
    // Stamp every file before the reload reads it: a change after this point differs from `seen` and is
    // picked up by the next tick; one before it is in what the reload reads. Either way nothing is lost, and
    // the backstop does not fire again for a change this reload already covers (nor for a rejected one).
    this.serially(() => this.restamp())
      .then(() => (this.stopped ? undefined : this.store.reload(trigger)))
      .catch((err: Error) => this.logger.error(`reload failed: ${err.message}`));
  }

  private startPolling(): void {
    if (this.polling || this.stopped) return;
    this.polling = true;
    this.nextTick();
  }

  private stopPolling(): void {
    this.polling = false;
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** A timeout chain rather than an interval: a slow stat (network filesystem) never stacks ticks. */
  private nextTick(): void {
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined;
      void this.serially(() => this.tick()).finally(() => {
        if (this.polling && !this.pollTimer) this.nextTick();
      });
    }, POLL_INTERVAL_MS);
    this.pollTimer.unref();
  }

  /** One backstop check: one stat per watched file, nothing read. */
  private async tick(): Promise<void> {
    const seen = this.seen;
    const files = [...this.watchedFiles];
    const now = await Promise.all(files.map((f) => statStamp(f)));
    // A snapshot applied meanwhile brought its own baseline; the next tick compares with that one.
    if (!this.polling || seen !== this.seen) return;
    const changed: string[] = [];
    files.forEach((file, i) => {
      const before = seen.get(file);
      if (before === now[i]) return;
      seen.set(file, now[i]);
      if (before !== undefined) changed.push(`${file} (${before} -> ${now[i]})`);
    });
    if (!changed.length) return;
    this.logger.debug(`stat backstop: changed on disk: ${changed.join(', ')}`);
    this.schedule('poll');
  }

  private async restamp(): Promise<void> {
    const seen = this.seen;
    const files = [...this.watchedFiles];
    const now = await Promise.all(files.map((f) => statStamp(f)));
    if (seen === this.seen) files.forEach((file, i) => seen.set(file, now[i]));
  }

  /** Runs `step` after the previous one; never rejects (a failure is logged). */
  private serially(step: () => Promise<void>): Promise<void> {
    this.stamping = this.stamping.then(step).catch((err: Error) => this.logger.warn(`stat backstop: ${err.message}`));
    return this.stamping;
  }
}

/** The stamps `files` were read with; a path without one (root given as text) gets its first tick's stat. */
function baseline(files: Set<string>, stamps: ReadonlyMap<string, FileStamp>): Map<string, FileStamp> {
  const seen = new Map<string, FileStamp>();
  for (const file of files) {
    const stamp = stamps.get(file);
    if (stamp !== undefined) seen.set(file, stamp);
  }
  return seen;
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
