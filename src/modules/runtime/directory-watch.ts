import { FSWatcher, lstatSync, watch } from 'node:fs';
import * as path from 'node:path';

/**
 * One `fs.watch` on one directory, with a counter of the changes seen in it. Whoever caches something read
 * from the directory notes `version` before the read and keeps the result only while the version is the
 * same and the watch is `live`: any event in the directory (a write, a create, a delete, an editor's
 * temp-file-and-rename) moves the version, so nothing read before a change survives it.
 *
 * fs.watch rather than chokidar: the raw inotify/FSEvents stream has no per-file throttle or "only the
 * mtime counts" logic, which is where chokidar loses saves (docs/decisions.md, config hot reload). The
 * watch never keeps the process alive (`persistent: false`).
 */
export class DirectoryWatch {
  /** Moves on every event in the directory. */
  version = 0;
  private watcher?: FSWatcher;

  private constructor(
    readonly dir: string,
    private readonly onChange: (watch: DirectoryWatch) => void,
  ) {}

  /**
   * A watch on `dir`, or undefined when it cannot be watched reliably: missing, not a directory, out of
   * watches (EMFILE, ENOSPC), or a symlink (re-pointing it would change every file without an event inside).
   */
  static open(dir: string, onChange: (watch: DirectoryWatch) => void): DirectoryWatch | undefined {
    const watch = new DirectoryWatch(dir, onChange);
    return watch.start() ? watch : undefined;
  }

  get live(): boolean {
    return this.watcher !== undefined;
  }

  close(): void {
    const watcher = this.watcher;
    this.watcher = undefined;
    watcher?.close();
  }

  private start(): boolean {
    try {
      if (!lstatSync(this.dir).isDirectory()) return false;
      this.watcher = watch(this.dir, { persistent: false }, (_event, name) => this.changed(name));
    } catch {
      return false;
    }
    this.watcher.on('error', () => this.end());
    return true;
  }

  private changed(name: string | Buffer | null): void {
    this.version++;
    // The directory itself was removed or renamed (the event names it, or nothing): the watch follows the old
    // inode, so it ends here; the next read opens a new watch on whatever is at the path then.
    if (name === null || String(name) === path.basename(this.dir)) return this.end();
    this.onChange(this);
  }

  private end(): void {
    this.version++;
    this.close();
    this.onChange(this);
  }
}
