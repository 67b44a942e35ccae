import type { BigIntStats } from 'node:fs';
import { promises as fs } from 'node:fs';

/**
 * What a file looked like on disk, cheap to take (one `stat`) and to compare: device, inode, size, mtime
 * and ctime in nanoseconds. A save by rename changes the inode, an in-place write the size or mtime, a
 * chmod the ctime. Used by the watcher's backstop (docs/configuration.md#7-hot-reload); the loader takes one
 * for every file right before it reads it, so a change made after the read always shows as a difference.
 */
export type FileStamp = string;

export function fileStamp(stat: BigIntStats): FileStamp {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** The stamp of `file` now (symlinks followed); a file that cannot be stat'ed gets `missing:<code>`. */
export async function statStamp(file: string): Promise<FileStamp> {
  try {
    return fileStamp(await fs.stat(file, { bigint: true }));
  } catch (err) {
    return `missing:${(err as NodeJS.ErrnoException).code ?? 'unknown'}`;
  }
}
