import { promises as fs } from 'node:fs';

interface CachedFile {
  mtimeMs: number;
  size: number;
  text: string;
}

/** Files remembered; beyond this the oldest entry is dropped (a few per agent). */
const MAX_ENTRIES = 2000;

/**
 * Workspace prompt files are read by every run but change rarely. One `stat` tells whether the remembered
 * text is still current (same mtime and size), so a run costs a stat per file instead of open/read/close;
 * an edit by the operator is picked up by the next run. A missing or unreadable file reads as empty.
 */
export class PromptFileCache {
  private readonly files = new Map<string, CachedFile>();

  async read(file: string): Promise<string> {
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat?.isFile()) {
      this.files.delete(file);
      return '';
    }
    const cached = this.files.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.text;
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    this.files.delete(file);
    this.files.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, text });
    if (this.files.size > MAX_ENTRIES) this.files.delete(this.files.keys().next().value as string);
    return text;
  }
}
