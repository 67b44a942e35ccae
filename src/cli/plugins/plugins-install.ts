import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../common/fs/private-files';
import { locateConfig, planSetPluginEnabled, readManifest } from '../../modules/config';
import { editConfigFromCli, failCli, type LocateOptions } from '../cli-config-edit';
import { writeInstallRecord, type InstallRecord } from './install-record';
import { InstallError, stageSource, type StagedSource } from './plugin-source';

const run = promisify(execFile);

export interface InstallOptions extends LocateOptions {
  json?: boolean;
  /** Symlink a plugin directory instead of copying it (for developing a plugin; its dependencies are its own). */
  link?: boolean;
  /** Also set plugins.entries.<id>.enabled to true: an installed plugin runs only once the operator says so. */
  enable?: boolean;
}

/** Not copied from a plugin directory: dependencies are installed afresh, version control is not the plugin. */
const NOT_COPIED = new Set(['node_modules', '.git']);

/**
 * `clawgate plugins install <path|.tgz|npm-spec> [--link] [--enable]`: the plugin's manifest is read and checked
 * before anything is put in `<stateDir>/extensions/`; the files are copied into a hidden directory there (private
 * modes, as the gateway's own state files), its dependencies installed with scripts disabled when it has any, the
 * install recorded, and only then renamed to `extensions/<id>/` — so discovery never sees half a plugin. The plugin
 * stays disabled unless `--enable` is given.
 */
export async function runPluginsInstall(spec: string, opts: InstallOptions): Promise<void> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const extensions = path.join(stateDir, 'extensions');
  await mkdirPrivate(stateDir);
  await mkdirPrivate(extensions);
  const scratch = path.join(extensions, `.install-${process.pid}-${randomBytes(4).toString('hex')}`);
  await fs.mkdir(scratch, { mode: PRIVATE_DIR_MODE });
  let installed: { record: InstallRecord; dir: string; linked: boolean };
  try {
    const staged = await stageSource(spec, scratch);
    if (opts.link && staged.kind !== 'path') throw new InstallError('--link needs a plugin directory, not a tarball or an npm spec');
    installed = await install(staged, extensions, scratch, opts.link === true);
  } catch (err) {
    if (!(err instanceof InstallError)) throw err;
    return failCli(`${err.message} (state dir ${stateDir}); nothing installed`);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
  const { record, dir, linked } = installed;
  const summary = { id: record.id, version: record.version, dir, linked, source: record.source, dependencies: record.dependencies };
  if (opts.enable) {
    await editConfigFromCli(opts, planSetPluginEnabled(record.id, true), `installed plugin ${record.id} in ${dir} and enabled it`, {
      jsonFields: { ...summary, enabled: true },
    });
    return;
  }
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ ...summary, enabled: false, configPath, stateDir }, null, 2)}\n`);
    return;
  }
  const version = record.version ? ` ${record.version}` : '';
  const deps = Object.keys(record.dependencies).length;
  process.stdout.write(
    `installed plugin ${record.id}${version} in ${dir}${linked ? ` (a link to ${record.source.spec})` : ''}` +
      `${deps ? `, with ${deps} dependenc${deps === 1 ? 'y' : 'ies'}` : ''}\n` +
      `it stays disabled until you enable it: clawgate plugins enable ${record.id} (config ${configPath})\n`,
  );
}

async function install(
  staged: StagedSource,
  extensions: string,
  scratch: string,
  link: boolean,
): Promise<{ record: InstallRecord; dir: string; linked: boolean }> {
  // The manifest first: a plugin that is not one is refused before any of its files is put in place.
  const read = await readManifest(staged.root);
  if (!read.ok) throw new InstallError(`not a plugin: ${read.problem}`);
  const id = read.manifest.id;
  const dir = path.join(extensions, id);
  if (await fs.lstat(dir).catch(() => undefined)) {
    throw new InstallError(`a plugin "${id}" is already installed at ${dir}: run clawgate plugins uninstall ${id} first`);
  }
  const packageJson = await readPackageJson(staged.root);
  const version = read.manifest.version ?? (typeof packageJson?.version === 'string' ? packageJson.version : null);
  const source = { kind: staged.kind, spec: staged.spec, ...(staged.integrity ? { integrity: staged.integrity } : {}) };
  if (link) {
    await fs.symlink(staged.root, dir, 'dir');
    return { record: { id, version, source, dependencies: {}, installedAt: new Date().toISOString() }, dir, linked: true };
  }

  const building = path.join(scratch, 'plugin');
  await copyPrivate(staged.root, building, staged.root);
  const dependencies = await installDependencies(building, packageJson);
  const record: InstallRecord = { id, version, source, dependencies, installedAt: new Date().toISOString() };
  await writeInstallRecord(building, record);
  await privatize(building);
  await fs.rename(building, dir);
  return { record, dir, linked: false };
}

/**
 * `npm install --omit=dev --ignore-scripts` in the plugin's copy, only when its package.json lists dependencies:
 * no install script of any package runs. Returns each dependency's installed version.
 */
async function installDependencies(dir: string, packageJson: Record<string, unknown> | undefined): Promise<Record<string, string>> {
  const wanted = packageJson?.dependencies;
  const names = wanted && typeof wanted === 'object' ? Object.keys(wanted) : [];
  if (!names.length) return {};
  try {
    await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const detail = ((err as { stderr?: string }).stderr ?? (err as Error).message).trim().split('\n').slice(-3).join(' ');
    throw new InstallError(`npm could not install the plugin's dependencies: ${detail}`);
  }
  const versions: Record<string, string> = {};
  for (const name of names.sort()) {
    const installed = await readPackageJson(path.join(dir, 'node_modules', name));
    versions[name] = typeof installed?.version === 'string' ? installed.version : 'unknown';
  }
  return versions;
}

/** Copies a plugin directory, refusing a symlink that leads out of it (the copy must not reach what the source did not hold). */
async function copyPrivate(from: string, to: string, root: string): Promise<void> {
  await fs.mkdir(to, { mode: PRIVATE_DIR_MODE });
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    if (NOT_COPIED.has(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await copyPrivate(source, target, root);
    else if (entry.isFile()) await fs.copyFile(source, target);
    else if (entry.isSymbolicLink()) {
      const link = await fs.readlink(source);
      const relative = path.relative(root, path.resolve(path.dirname(source), link));
      if (relative.startsWith('..') || path.isAbsolute(relative)) {
        throw new InstallError(`${source} is a symlink leading out of the plugin's directory (to ${link})`);
      }
      await fs.symlink(link, target);
    }
  }
}

/** Directories 0700, files 0600 (0700 when executable): the modes of the gateway's own state files. */
async function privatize(dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await privatize(file);
    else if (entry.isFile()) await fs.chmod(file, ((await fs.stat(file)).mode & 0o100) !== 0 ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE);
  }
  await fs.chmod(dir, PRIVATE_DIR_MODE);
}

async function mkdirPrivate(dir: string): Promise<void> {
  // An existing directory keeps its mode (an operator who set it on purpose is not overruled).
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

async function readPackageJson(dir: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
