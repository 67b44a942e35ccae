import * as path from 'node:path';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { FSWatcher, watch } from 'chokidar';
import { ConfigStore } from './config.store';
import type { RuntimeSnapshot } from './config.types';

/** How long a file must stop growing before it counts as written (docs/configuration.md#7-hot-reload). */
export const WRITE_STABILITY_MS = 200;

/**
 * Watches openclaw.json and every included file; after the write has settled and the debounce has passed,
 * asks the ConfigStore to reload. Directories are watched rather than files so that editors which save
 * by writing a new file and renaming it over the old one are followed.
 */
@Injectable()
export class ConfigWatcher implements OnModuleDestroy {
  private readonly logger = new Logger('config-watcher');
  private watcher?: FSWatcher;
  private watchedFiles = new Set<string>();
  private watchedDirs = new Set<string>();
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;

  constructor(private readonly store: ConfigStore) {}

  /**
   * Starts following the files of the current snapshot (no-op when gateway.reload.mode is off). Resolves
   * once the watcher is live, so an edit made right after the gateway reports ready is not missed.
   */
  async start(): Promise<void> {
    this.unsubscribe = this.store.onApplied((_prev, next) => void this.follow(next));
    await this.follow(this.store.current());
  }

  async onModuleDestroy(): Promise<void> {
    this.unsubscribe?.();
    clearTimeout(this.timer);
    await this.watcher?.close();
    this.watcher = undefined;
  }

  private async follow(snapshot: RuntimeSnapshot): Promise<void> {
    if (snapshot.config.gateway.reload.mode === 'off') {
      clearTimeout(this.timer);
      await this.watcher?.close();
      this.watcher = undefined;
      this.watchedFiles.clear();
      this.watchedDirs.clear();
      return;
    }
    const files = new Set([path.resolve(snapshot.configPath), ...snapshot.files.map((f) => path.resolve(f))]);
    const dirs = new Set([...files].map((f) => path.dirname(f)));
    this.watchedFiles = files;
    if (this.watcher && sameSet(dirs, this.watchedDirs)) return;

    await this.watcher?.close();
    this.watchedDirs = dirs;
    this.watcher = watch([...dirs], {
      ignoreInitial: true,
      depth: 0,
      awaitWriteFinish: { stabilityThreshold: WRITE_STABILITY_MS, pollInterval: 50 },
      // Only the config files themselves matter; everything else in those directories is ignored.
      ignored: (p: string) => !dirs.has(path.resolve(p)) && !this.watchedFiles.has(path.resolve(p)),
    });
    this.watcher.on('all', (event, file) => this.onEvent(event, file));
    this.watcher.on('error', (err) => this.logger.warn(`watcher error: ${(err as Error).message}`));
    const watcher = this.watcher;
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  private onEvent(event: string, file: string): void {
    if (!this.watchedFiles.has(path.resolve(file))) return;
    clearTimeout(this.timer);
    const debounceMs = this.store.current().config.gateway.reload.debounceMs;
    this.timer = setTimeout(() => {
      this.store.reload('watch').catch((err: Error) => this.logger.error(`reload failed: ${err.message}`));
    }, debounceMs);
    this.logger.debug(`${event} ${file}`);
  }
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
