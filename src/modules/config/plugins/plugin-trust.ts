import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** What the gateway's process is: whose files it trusts besides root's. Undefined where there are no uids (Windows). */
export interface TrustIdentity {
  uid?: number;
}

export function processIdentity(): TrustIdentity {
  return { uid: typeof process.getuid === 'function' ? process.getuid() : undefined };
}

/**
 * Why the plugin at `root` (a real path) may not be trusted, or undefined when it may: a plugin is code the
 * gateway will run with its own rights, so it must be code only the gateway's user (or root) could have put
 * there. Refused when its directory or entry is writable by group or others, when either belongs to
 * another user, or when its entry leads out of its directory through a symlink.
 */
export async function trustProblem(
  root: string,
  entryFile: string,
  identity: TrustIdentity = processIdentity(),
): Promise<string | undefined> {
  const rootProblem = await ownershipProblem(root, 'its directory', identity);
  if (rootProblem) return rootProblem;
  let realEntry: string;
  try {
    realEntry = await fs.realpath(entryFile);
  } catch {
    return `its entry ${entryFile} does not exist`;
  }
  const relative = path.relative(root, realEntry);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    return `its entry ${entryFile} leaves the plugin's directory through a symlink (to ${realEntry})`;
  }
  return ownershipProblem(realEntry, 'its entry', identity);
}

async function ownershipProblem(file: string, what: string, identity: TrustIdentity): Promise<string | undefined> {
  const stat = await fs.stat(file);
  if (identity.uid !== undefined && stat.uid !== identity.uid && stat.uid !== 0) {
    return `${what} ${file} belongs to uid ${stat.uid}, neither the gateway's user (uid ${identity.uid}) nor root`;
  }
  if (process.platform !== 'win32' && (stat.mode & 0o022) !== 0) {
    return `${what} ${file} is writable by ${(stat.mode & 0o020) !== 0 ? 'its group' : 'others'} (mode ${(stat.mode & 0o777).toString(8).padStart(3, '0')}); run chmod go-w on it`;
  }
  return undefined;
}
