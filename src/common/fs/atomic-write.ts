/**
 * Crash-safe file replacement for config writes. The gateway watches its config file and hot-reloads,
 * so a reader (or a crash) must never see a half-written file: we write a temp file next to the target,
 * fsync it, then rename over the target, which is atomic within one file system.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** Mode of the file when it does not exist yet [0o666, less the umask]. */
  newFileMode?: number;
}

/** Writes text to path via temp file in the same dir + fsync + rename (+ fsync of the dir, best effort). Keeps the existing file's mode. */
export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  // Write through a symlink to its target, so the link itself is not replaced by a regular file.
  const target = await fs.realpath(path).catch(() => path);
  const dir = dirname(target);
  const mode = await fs.stat(target).then(
    (st) => st.mode & 0o7777,
    (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    },
  );
  // Same directory as the target: rename is only atomic within one file system. The dot prefix and
  // random suffix keep the temp file out of globs and away from concurrent writers.
  const tmp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // 'wx' never follows or truncates an existing file at the temp name.
    const handle = await fs.open(tmp, 'wx', mode ?? options.newFileMode ?? 0o666);
    try {
      await handle.writeFile(text, 'utf8');
      // open() applies the umask; chmod restores the exact mode the file had before.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, target);
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  // Persist the rename itself. Some platforms (Windows) cannot open or fsync a directory: best effort.
  try {
    const d = await fs.open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    /* the data is already durable; only the directory entry may lag */
  }
}
