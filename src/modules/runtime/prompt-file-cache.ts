import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { DirectoryWatch } from './directory-watch';

/** What the system prompt needs: a prompt file's text, empty when it is missing or unreadable. */
export interface PromptFileReader {
  read(file: string): Promise<string>;
}

interface CachedFile {
  text: string;
  /** The directory watch that vouches for the text; undefined when the text is checked by `stamp` instead. */
  watch?: DirectoryWatch;
  /** mtime and size when the text was read: checked with one `stat` per read (files no watch can vouch for). */
  stamp?: { mtimeMs: number; size: number };
}

/** Files remembered; beyond this the least recently read entry is dropped (a few per agent). */
const MAX_ENTRIES = 2000;
/** Directories watched at once (one per workspace); beyond this, files of further directories are checked by stat. */
const MAX_WATCHED_DIRS = 500;

/** A prompt file read with no cache: a missing file or a directory reads as empty, like an unreadable one. */
export async function readPromptFile(file: string): Promise<string> {
  return (await readWithStat(file)).text;
}

/** The text, and when the file is a symlink or a regular file, whether it is a link and the stat of what it points to. */
async function readWithStat(file: string): Promise<{ text: string; link: boolean; stat?: Stats }> {
  const own = await fs.lstat(file).catch(() => undefined);
  const link = own?.isSymbolicLink() ?? false;
  const stat = link ? await fs.stat(file).catch(() => undefined) : own;
  if (!stat?.isFile()) return { text: '', link };
  return { text: await fs.readFile(file, 'utf8').catch(() => ''), link, stat };
}

/**
 * Workspace prompt files are read by every run but change rarely. A file's text is kept while a watch on its
 * directory (one per workspace, not per file) has seen no change there, so a run whose files did not change
 * touches the file system not at all; any event in the directory — an edit, an editor's temp-file-and-rename,
 * the creation of a file that was missing — drops that directory's entries and the next run reads again.
 * Where no watch can vouch (the directory cannot be watched, the file is a symlink, or the cache is closed)
 * the text is checked with one `stat` per read (same mtime and size), as before. Close it on shutdown.
 */
@Injectable()
export class PromptFileCache implements PromptFileReader, OnModuleDestroy {
  private readonly files = new Map<string, CachedFile>();
  private readonly watches = new Map<string, DirectoryWatch>();
  /** The files each watch vouches for; a watch left with none is closed. */
  private readonly filesOf = new Map<DirectoryWatch, Set<string>>();
  private closed = false;

  async read(file: string): Promise<string> {
    // Most recently read last (peek moves it), so the eviction below drops the coldest file.
    const vouched = this.peek(file);
    if (vouched !== undefined) return vouched;
    const cached = this.files.get(file);
    if (cached?.stamp) {
      const stat = await fs.stat(file).catch(() => undefined);
      if (stat?.isFile() && stat.mtimeMs === cached.stamp.mtimeMs && stat.size === cached.stamp.size) return cached.text;
    }
    return this.load(file);
  }

  /** The text when a live watch vouches for it (no file system call, no promise); undefined when it must be read. */
  peek(file: string): string | undefined {
    const cached = this.files.get(file);
    if (!cached?.watch?.live) return undefined;
    this.files.delete(file);
    this.files.set(file, cached);
    return cached.text;
  }

  /** Closes every watch; later reads are checked by stat. */
  close(): void {
    this.closed = true;
    for (const watch of this.watches.values()) watch.close();
    this.watches.clear();
    this.filesOf.clear();
    this.files.clear();
  }

  onModuleDestroy(): void {
    this.close();
  }

  private async load(file: string): Promise<string> {
    // Watch first, read second: a change made while the read is under way moves the version and the text read
    // is not kept, so a stale text can never look current.
    const watch = this.watchFor(path.dirname(file));
    const version = watch?.version;
    const { text, link, stat } = await readWithStat(file);
    this.forget(file);
    if (this.closed) return text;
    if (watch && !link) {
      // Changed under the read: kept nowhere, so the next read loads again (and watches again).
      if (watch.live && watch.version === version) this.remember(file, { text, watch });
    } else if (stat) {
      this.remember(file, { text, stamp: { mtimeMs: stat.mtimeMs, size: stat.size } });
    }
    return text;
  }

  private watchFor(dir: string): DirectoryWatch | undefined {
    if (this.closed) return undefined;
    const known = this.watches.get(dir);
    if (known?.live) return known;
    if (this.watches.size >= MAX_WATCHED_DIRS) return undefined;
    const watch = DirectoryWatch.open(dir, (changed) => this.changed(changed));
    if (watch) this.watches.set(dir, watch);
    return watch;
  }

  private remember(file: string, entry: CachedFile): void {
    this.files.set(file, entry);
    if (entry.watch) {
      let vouched = this.filesOf.get(entry.watch);
      if (!vouched) this.filesOf.set(entry.watch, (vouched = new Set()));
      vouched.add(file);
    }
    if (this.files.size > MAX_ENTRIES) this.forget(this.files.keys().next().value as string);
  }

  private forget(file: string): void {
    const entry = this.files.get(file);
    if (!entry) return;
    this.files.delete(file);
    const vouched = entry.watch && this.filesOf.get(entry.watch);
    if (!entry.watch || !vouched) return;
    vouched.delete(file);
    if (!vouched.size) this.unwatch(entry.watch);
  }

  /** Something changed in the watched directory: every text read from it is suspect, and the watch goes too. */
  private changed(watch: DirectoryWatch): void {
    for (const file of this.filesOf.get(watch) ?? []) this.files.delete(file);
    this.unwatch(watch);
  }

  /** Closing a watch whose directory is quiet again costs one inotify watch on the next read, never a stale text. */
  private unwatch(watch: DirectoryWatch): void {
    watch.close();
    this.filesOf.delete(watch);
    if (this.watches.get(watch.dir) === watch) this.watches.delete(watch.dir);
  }
}
