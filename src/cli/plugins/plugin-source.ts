import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What `plugins install` was given: a plugin directory, a package tarball, or an npm spec (`name`, `name@1.2.0`, `@scope/name`). */
export type PluginSourceKind = 'path' | 'tarball' | 'npm';

/** A plugin's files made readable on this machine, not yet in the state dir: `root` holds its manifest. */
export interface StagedSource {
  kind: PluginSourceKind;
  /** As given on the command line (a path resolved to absolute). */
  spec: string;
  root: string;
  /** sha512 of the tarball installed (npm's `integrity` form), for a tarball or an npm spec. */
  integrity?: string;
  /** Removes what staging made (nothing for a directory). */
  cleanup(): Promise<void>;
}

/** What a CLI refusal says: one line, no stack. */
export class InstallError extends Error {}

/**
 * Makes the source readable without running any of its code: a directory is used where it is; a `.tgz` is
 * unpacked into `scratch`; an npm spec is fetched with `npm pack --ignore-scripts` (a registry download, no
 * lifecycle script) and unpacked likewise. `scratch` is a private directory the caller removes.
 */
export async function stageSource(spec: string, scratch: string): Promise<StagedSource> {
  const local = path.resolve(spec);
  const stat = await fs.stat(local).catch(() => undefined);
  if (stat?.isDirectory()) return { kind: 'path', spec: local, root: local, cleanup: () => Promise.resolve() };
  if (stat?.isFile()) {
    if (!/\.(tgz|tar\.gz)$/.test(local))
      throw new InstallError(`${local} is a file but not a package tarball (.tgz): give a plugin directory, a .tgz or an npm spec`);
    return unpack('tarball', local, local, scratch);
  }
  if (looksLikePath(spec)) throw new InstallError(`${local} does not exist`);
  const packed = await npmPack(spec, scratch);
  return unpack('npm', spec, packed, scratch);
}

/** `./x`, `../x`, `/x`, `~/x`, or a name ending in .tgz: meant as a file, not an npm spec. */
function looksLikePath(spec: string): boolean {
  return /^(\.{1,2}[\\/]|[\\/]|~[\\/])/.test(spec) || /\.(tgz|tar\.gz)$/.test(spec);
}

async function npmPack(spec: string, scratch: string): Promise<string> {
  const dest = path.join(scratch, 'download');
  await fs.mkdir(dest, { recursive: true, mode: 0o700 });
  let stdout: string;
  try {
    ({ stdout } = await run('npm', ['pack', spec, '--ignore-scripts', '--json', '--pack-destination', dest], {
      cwd: scratch,
      maxBuffer: 16 * 1024 * 1024,
    }));
  } catch (err) {
    const detail = ((err as { stderr?: string }).stderr ?? (err as Error).message).trim().split('\n').slice(-3).join(' ');
    throw new InstallError(`npm could not fetch ${spec}: ${detail}`);
  }
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
  return path.join(dest, path.basename(packed.filename));
}

/**
 * Unpacks a package tarball (npm's layout: everything under `package/`). GNU and BSD tar refuse members that
 * leave the directory (`..`, absolute names); what the plugin's entry points at is checked again by the trust
 * check before any of it runs.
 */
async function unpack(kind: PluginSourceKind, spec: string, tarball: string, scratch: string): Promise<StagedSource> {
  const into = path.join(scratch, 'unpacked');
  await fs.mkdir(into, { recursive: true, mode: 0o700 });
  try {
    await run('tar', ['-xzf', tarball, '-C', into, '--no-same-owner', '--no-same-permissions']);
  } catch (err) {
    throw new InstallError(`cannot unpack ${tarball}: ${((err as { stderr?: string }).stderr ?? (err as Error).message).trim()}`);
  }
  const top = await fs.readdir(into);
  const root = top.length === 1 && (await fs.stat(path.join(into, top[0]))).isDirectory() ? path.join(into, top[0]) : into;
  const integrity = `sha512-${createHash('sha512')
    .update(await fs.readFile(tarball))
    .digest('base64')}`;
  return { kind, spec, root, integrity, cleanup: () => fs.rm(into, { recursive: true, force: true }) };
}
