import { existsSync, Stats } from 'node:fs';
import * as path from 'node:path';
import { FSWatcher, watch } from 'chokidar';
import type { ChangeBatch, ChangeWatcher, WatchOptions } from './collection-source';
import { DebounceTimer } from './debounce-timer';
import { globDepth, isHiddenPath } from './glob-pattern';
import { isInsideDir, MemoryCollection, relativeInCollection } from './memory-collections';

/**
 * Follows the directories of an agent's file collections and reports changes in debounced batches (a busy
 * file that never falls quiet is still flushed at least every 5 × debounce). A collection root that does
 * not exist yet (a directory granted before it is created) is followed from its nearest existing ancestor,
 * so its creation is noticed.
 */
export class CollectionWatcher implements ChangeWatcher {
  private watcher?: FSWatcher;
  private pending: ChangeBatch = { files: new Set(), rescan: new Set() };
  private readonly timer: DebounceTimer;
  /** Ends a start() still waiting for 'ready': a watcher closed that early never becomes ready. */
  private endStart?: () => void;

  constructor(
    private readonly collections: readonly MemoryCollection[],
    private readonly options: WatchOptions,
  ) {
    this.timer = new DebounceTimer(options.debounceMs, () => this.flush());
  }

  /** Resolves once the watcher is live. */
  async start(): Promise<void> {
    const targets = [...new Set(this.collections.map((c) => nearestExisting(c.root)))];
    if (!targets.length) return;
    const watcher = watch(targets, {
      ignoreInitial: true,
      ignored: (p: string, stats?: Stats) => !this.wanted(p, stats),
    });
    this.watcher = watcher;
    watcher.on('all', (event, file) => this.onEvent(event, path.resolve(file)));
    watcher.on('error', (err) => this.options.onError?.(err as Error));
    await new Promise<void>((resolve) => {
      this.endStart = resolve;
      watcher.once('ready', () => resolve());
    });
    this.endStart = undefined;
  }

  async close(): Promise<void> {
    this.endStart?.();
    this.timer.cancel();
    await this.watcher?.close();
    this.watcher = undefined;
  }

  /** Whether a path matters to some collection: a directory on the way to or inside a root, or a member file. */
  private wanted(p: string, stats?: Stats): boolean {
    const abs = path.resolve(p);
    return this.collections.some((c) => {
      if (isInsideDir(abs, c.root)) return !stats || stats.isDirectory(); // an ancestor of the root (or the root)
      const rel = path.relative(c.root, abs);
      if (rel.startsWith('..') || path.isAbsolute(rel) || isHiddenPath(rel)) return false;
      const depth = globDepth(c.pattern);
      const dirOk = depth === undefined || rel.split(path.sep).length <= depth;
      const fileOk = relativeInCollection(c, abs) !== undefined;
      if (!stats) return dirOk || fileOk;
      return stats.isDirectory() ? dirOk : fileOk;
    });
  }

  private onEvent(event: string, file: string): void {
    if (event === 'addDir' || event === 'unlinkDir') {
      for (const c of this.collections) {
        if (isInsideDir(file, c.root) || isInsideDir(c.root, file)) this.pending.rescan.add(c.key);
      }
    } else if (event === 'add' || event === 'change' || event === 'unlink') {
      this.pending.files.add(file);
    } else {
      return;
    }
    this.timer.touch();
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = { files: new Set(), rescan: new Set() };
    if (batch.files.size || batch.rescan.size) this.options.onBatch(batch);
  }
}

function nearestExisting(dir: string): string {
  let current = path.resolve(dir);
  while (!existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return current;
}
