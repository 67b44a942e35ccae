/**
 * What writeFileAtomic leaves behind when its process dies between creating the temp file and the rename
 * (kill -9, OOM killer, power loss): `.<name>.<pid>.<hex>.tmp` next to the target. The target itself is
 * intact (old or new version); the temp file is garbage that nothing else would ever remove.
 */
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The writer's pid if `name` is a temp file writeFileAtomic made for a target called `targetName`. */
export function tempFileWriterPid(name: string, targetName: string): number | undefined {
  const prefix = `.${targetName}.`;
  if (!name.startsWith(prefix) || !name.endsWith('.tmp')) return undefined;
  const m = /^(\d+)\.[0-9a-f]+$/.exec(name.slice(prefix.length, -'.tmp'.length));
  return m ? Number(m[1]) : undefined;
}

export interface StaleTempOptions {
  /** Keep this process's own temp files: for a target this process may already be writing. */
  keepOwn?: boolean;
}

/**
 * Removes the temp files of `target` whose writer is gone; returns their paths. Call it before this
 * process writes `target` itself: a temp file carrying this process's own pid then comes from an earlier
 * process that had the same pid (a container restarted with the same pid 1), not from a write in progress.
 * A temp file of another live process is left alone (it may be mid-write). Errors are not thrown: cleaning
 * up is never a reason to fail.
 */
export async function removeStaleTempFiles(target: string, options: StaleTempOptions = {}): Promise<string[]> {
  const real = await fs.realpath(target).catch(() => target);
  const dir = dirname(real);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const pid = tempFileWriterPid(name, basename(real));
    const own = pid === process.pid;
    if (pid === undefined || (own && options.keepOwn) || (!own && isProcessAlive(pid))) continue;
    const file = join(dir, name);
    if (
      await fs.rm(file, { force: true }).then(
        () => true,
        () => false,
      )
    ) {
      removed.push(file);
    }
  }
  return removed;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
