import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ConfigIssue } from '../pipeline/config-issue';
import type { PluginManifest, PluginSource } from './plugin-catalog.types';
import { MANIFEST_FILES, readManifest } from './read-manifest';
import { trustProblem, type TrustIdentity, processIdentity } from './plugin-trust';

/** A plugin directory found, with its checked manifest, or why it cannot be used (`problem`). */
export interface FoundPlugin {
  id: string;
  source: PluginSource;
  /** Real path of its directory. */
  root: string;
  manifestFile?: string;
  entryFile?: string;
  manifest?: PluginManifest;
  /** Why it is refused: its manifest is missing or wrong, or it is not trusted. */
  problem?: string;
}

export interface DiscoveryInput {
  /** `plugins.load.paths`, resolved (absolute, `~` expanded), in the order written. */
  loadPaths: ReadonlyArray<string>;
  stateDir: string;
  /** Directories of the plugins that ship with clawgate. */
  bundledRoots?: ReadonlyArray<string>;
  identity?: TrustIdentity;
}

export interface Discovery {
  /** By id, in discovery order: the first place an id is found wins. */
  plugins: Map<string, FoundPlugin>;
  warnings: ConfigIssue[];
}

interface Candidate {
  dir: string;
  source: PluginSource;
  /** The id its place implies (`extensions/<id>/`), which its manifest must match. */
  expectedId?: string;
}

/**
 * Finds the plugins, in order: each `plugins.load.paths` entry (a plugin directory, or a directory of
 * them), `<stateDir>/extensions/<id>/`, then the bundled ones. Reads every manifest and checks every plugin's
 * trust before any plugin code runs; runs none. A path that does not exist is a warning, not an error: a
 * config copied from another machine still loads.
 */
export async function discoverPlugins(input: DiscoveryInput): Promise<Discovery> {
  const warnings: ConfigIssue[] = [];
  const candidates: Candidate[] = [];
  for (const [index, dir] of input.loadPaths.entries()) {
    const at = `plugins.load.paths[${index}]`;
    const kind = await kindOf(dir);
    if (kind === 'missing') warnings.push({ path: at, message: `${dir} does not exist: no plugin is loaded from it` });
    else if (kind === 'file') warnings.push({ path: at, message: `${dir} is a file: a plugin is a directory holding ${MANIFEST_FILES.clawgate}` });
    else if (await hasManifest(dir)) candidates.push({ dir, source: 'load-path' });
    else {
      // A directory of plugins: each directory in it is one, refused when it has no manifest. A directory
      // with neither a manifest nor directories inside is taken as a plugin missing its manifest.
      const inside = (await subdirectories(dir)).filter((d) => path.basename(d) !== 'node_modules');
      candidates.push(...(inside.length ? inside : [dir]).map((d) => ({ dir: d, source: 'load-path' as const })));
    }
  }
  const extensions = path.join(input.stateDir, 'extensions');
  for (const dir of await subdirectories(extensions)) candidates.push({ dir, source: 'extensions', expectedId: path.basename(dir) });
  for (const dir of input.bundledRoots ?? []) candidates.push({ dir, source: 'bundled' });

  const plugins = new Map<string, FoundPlugin>();
  for (const candidate of candidates) {
    const found = await examine(candidate, input.identity ?? processIdentity());
    const first = plugins.get(found.id);
    if (first) {
      warnings.push({ path: 'plugins', message: `plugin "${found.id}" at ${found.root} is ignored: the one at ${first.root} was found first` });
    } else plugins.set(found.id, found);
  }
  return { plugins, warnings };
}

async function examine(candidate: Candidate, identity: TrustIdentity): Promise<FoundPlugin> {
  const root = await fs.realpath(candidate.dir).catch(() => path.resolve(candidate.dir));
  const fallbackId = candidate.expectedId ?? path.basename(root);
  const read = await readManifest(root, { bundled: candidate.source === 'bundled' });
  if (!read.ok) return { id: fallbackId, source: candidate.source, root, manifestFile: read.manifestFile, problem: read.problem };
  const { manifest, manifestFile, entryFile } = read;
  const base = { id: manifest.id, source: candidate.source, root, manifestFile, entryFile, manifest };
  if (candidate.expectedId !== undefined && manifest.id !== candidate.expectedId) {
    return {
      ...base,
      id: candidate.expectedId,
      problem: `${manifestFile}: id: "${manifest.id}" does not match its directory ${candidate.dir} (extensions/<id>/)`,
    };
  }
  // A bundled plugin is part of the gateway's own code: its files are as trusted as the gateway's.
  if (candidate.source === 'bundled') return base;
  const untrusted = await trustProblem(root, entryFile, identity);
  return untrusted ? { ...base, problem: `not trusted: ${untrusted}` } : base;
}

async function kindOf(file: string): Promise<'missing' | 'file' | 'dir'> {
  try {
    return (await fs.stat(file)).isDirectory() ? 'dir' : 'file';
  } catch {
    return 'missing';
  }
}

async function hasManifest(dir: string): Promise<boolean> {
  for (const name of Object.values(MANIFEST_FILES)) if ((await kindOf(path.join(dir, name))) === 'file') return true;
  return false;
}

/** The directories directly inside `dir`, sorted by name (so discovery order does not depend on the file system). */
async function subdirectories(dir: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    const dirs = await Promise.all(
      entries.map(async (e) => ((e.isDirectory() || (e.isSymbolicLink() && (await kindOf(path.join(dir, e.name))) === 'dir')) ? e.name : undefined)),
    );
    return dirs
      .filter((name): name is string => name !== undefined && !name.startsWith('.'))
      .sort()
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}
