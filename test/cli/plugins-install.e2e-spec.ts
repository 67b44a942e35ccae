import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { CliBuild, CliRun, runCli as runCliProcess, transpileCli } from '../fixtures/cli-runner';
import { greetingManifest, writePluginDir } from '../support/plugin-dirs';

/**
 * `clawgate plugins install|uninstall|doctor` as a user runs them: a separate process, plugin directories and a
 * `npm pack`ed tarball made here, a commented openclaw.json. Nothing reaches a registry (no npm spec is installed,
 * the plugins have no dependencies) and no plugin code runs.
 */

const CONFIG = `// my gateway
{
  agents: { list: [{ id: "main" }] },
  plugins: {
    // plugins next to this file
    load: { paths: ["./plugins"] },
  },
}
`;

let build: CliBuild;
let tmp: string;
let configPath: string;
let stateDir: string;
let extensions: string;

function runCli(args: string[]): Promise<CliRun> {
  return runCliProcess(build.cliJs, [...args, '--config', configPath, '--state-dir', stateDir], {
    HOME: tmp,
    CLAWGATE_LOG_LEVEL: 'silent',
  });
}

async function listed(): Promise<Record<string, { state: string; source: string; reason: string | null }>> {
  const run = await runCli(['plugins', 'list', '--json']);
  expect(run.code).toBe(0);
  const { plugins } = JSON.parse(run.stdout) as { plugins: Array<{ id: string; state: string; source: string; reason: string | null }> };
  return Object.fromEntries(plugins.map((p) => [p.id, p]));
}

const modeOf = async (file: string) => ((await fs.stat(file)).mode & 0o777).toString(8);

beforeAll(async () => {
  build = await transpileCli();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-cli-install-'));
  configPath = path.join(tmp, 'openclaw.json');
  stateDir = path.join(tmp, 'state');
  extensions = path.join(stateDir, 'extensions');
  await fs.writeFile(configPath, CONFIG);
  // A trusted plugin beside the config, so the load path is a directory of plugins.
  await writePluginDir(path.join(tmp, 'plugins', 'local'), { manifest: greetingManifest('local') });
}, 120_000);

afterAll(async () => {
  await build?.remove();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

describe('clawgate plugins install', () => {
  it('copies a plugin directory into the state dir with private modes, records it, and leaves it disabled', async () => {
    const source = await writePluginDir(path.join(tmp, 'src', 'greeter'), {
      manifest: greetingManifest('greeter'),
      files: { 'lib/util.js': 'module.exports = 1;\n', 'node_modules/left-pad/index.js': 'stale\n' },
    });
    const before = await fs.readFile(configPath, 'utf8');
    const run = await runCli(['plugins', 'install', source]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const dir = path.join(extensions, 'greeter');
    expect(run.stdout).toContain(`installed plugin greeter 1.2.3 in ${dir}`);
    expect(run.stdout).toContain('clawgate plugins enable greeter');

    expect(await modeOf(dir)).toBe('700');
    expect(await modeOf(path.join(dir, 'lib'))).toBe('700');
    expect(await modeOf(path.join(dir, 'index.js'))).toBe('600');
    expect(await modeOf(path.join(dir, 'lib', 'util.js'))).toBe('600');
    // Dependencies are installed afresh, never copied; this plugin has none, so there are none.
    await expect(fs.stat(path.join(dir, 'node_modules'))).rejects.toThrow();
    const record = JSON.parse(await fs.readFile(path.join(dir, '.clawgate-install.json'), 'utf8'));
    expect(record).toMatchObject({ id: 'greeter', version: '1.2.3', source: { kind: 'path', spec: source }, dependencies: {} });
    expect(await modeOf(path.join(dir, '.clawgate-install.json'))).toBe('600');

    expect(await fs.readFile(configPath, 'utf8')).toBe(before);
    expect((await listed()).greeter).toMatchObject({ source: 'extensions', state: 'disabled' });
    // Nothing half-made stays behind in extensions/.
    expect(await fs.readdir(extensions)).toEqual(['greeter']);
  }, 120_000);

  it('installs a tarball made by npm pack and enables it only with --enable, keeping the comments', async () => {
    const source = await writePluginDir(path.join(tmp, 'src', 'weather-pack'), {
      manifest: greetingManifest('weather', { version: undefined }),
      files: { 'package.json': JSON.stringify({ name: 'weather-pack', version: '0.4.0', main: 'index.js' }) },
    });
    const { stdout } = await promisify(execFile)('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: source });
    const tarball = path.join(tmp, (JSON.parse(stdout) as Array<{ filename: string }>)[0].filename);

    const run = await runCli(['plugins', 'install', tarball, '--enable', '--json']);
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer).toMatchObject({
      id: 'weather',
      version: '0.4.0',
      dir: path.join(extensions, 'weather'),
      linked: false,
      enabled: true,
      source: { kind: 'tarball', spec: tarball },
      configPath,
    });
    expect(answer.source.integrity).toMatch(/^sha512-/);
    expect(answer.revision).toMatch(/^[0-9a-f]{12}$/);
    const text = await fs.readFile(configPath, 'utf8');
    expect(text).toContain('// my gateway');
    expect(text).toContain('// plugins next to this file');
    expect((await listed()).weather).toMatchObject({ source: 'extensions', state: 'enabled' });
  }, 120_000);

  it('refuses a plugin whose manifest is wrong, naming the file and the field, and puts nothing in place', async () => {
    const manifest = greetingManifest('broken');
    delete manifest.configSchema;
    const source = await writePluginDir(path.join(tmp, 'src', 'broken'), { manifest });
    const run = await runCli(['plugins', 'install', source]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`not a plugin: ${path.join(source, 'clawgate.plugin.json')}: `);
    expect(run.stderr).toContain('configSchema');
    expect(run.stderr).toContain('nothing installed');
    expect((await fs.readdir(extensions)).sort()).toEqual(['greeter', 'weather']);

    const again = await runCli(['plugins', 'install', path.join(tmp, 'src', 'greeter')]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`a plugin "greeter" is already installed at ${path.join(extensions, 'greeter')}`);

    const escaping = await writePluginDir(path.join(tmp, 'src', 'escaping'), { manifest: greetingManifest('escaping') });
    await fs.writeFile(path.join(tmp, 'outside.js'), 'module.exports = {};\n');
    await fs.symlink(path.join(tmp, 'outside.js'), path.join(escaping, 'helper.js'));
    const escape = await runCli(['plugins', 'install', escaping]);
    expect(escape.code).toBe(1);
    expect(escape.stderr).toContain("helper.js is a symlink leading out of the plugin's directory");
    expect((await fs.readdir(extensions)).sort()).toEqual(['greeter', 'weather']);
  }, 120_000);

  it('links a plugin directory with --link, and uninstall removes only the link', async () => {
    const source = await writePluginDir(path.join(tmp, 'src', 'dev'), { manifest: greetingManifest('dev') });
    const run = await runCli(['plugins', 'install', source, '--link', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 'dev', linked: true, enabled: false });
    expect(await fs.readlink(path.join(extensions, 'dev'))).toBe(source);
    expect((await listed()).dev).toMatchObject({ source: 'extensions', state: 'disabled' });

    const gone = await runCli(['plugins', 'uninstall', 'dev']);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain(`uninstalled plugin dev: removed the link ${path.join(extensions, 'dev')}`);
    await expect(fs.lstat(path.join(extensions, 'dev'))).rejects.toThrow();
    expect(await fs.readFile(path.join(source, 'index.js'), 'utf8')).toContain('register');
  }, 120_000);
});

describe('clawgate plugins uninstall', () => {
  it('removes the plugin and its config entry, keeping the comments; names an unknown id with did-you-mean', async () => {
    const run = await runCli(['plugins', 'uninstall', 'weather', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 'weather', removed: true, linked: false, configPath });
    await expect(fs.stat(path.join(extensions, 'weather'))).rejects.toThrow();
    const text = await fs.readFile(configPath, 'utf8');
    expect(text).not.toContain('weather');
    expect(text).toContain('// plugins next to this file');
    expect((await listed()).weather).toBeUndefined();

    const unknown = await runCli(['plugins', 'uninstall', 'greeterr']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no plugin "greeterr" in ${extensions} (did you mean "greeter"?); installed: greeter`);
  }, 120_000);
});

describe('clawgate plugins doctor', () => {
  it('finds no problem in trusted plugins, then names each problem with its fix and exits 1', async () => {
    const clean = await runCli(['plugins', 'doctor']);
    expect(clean.stdout).toContain('no problems');
    expect(clean.code).toBe(0);

    const installed = path.join(extensions, 'greeter');
    await fs.chmod(installed, 0o757);
    const linked = await writePluginDir(path.join(tmp, 'plugins', 'linked'), { manifest: greetingManifest('linked') });
    await fs.rm(path.join(linked, 'index.js'));
    await fs.symlink(path.join(tmp, 'outside.js'), path.join(linked, 'index.js'));
    await writePluginDir(path.join(tmp, 'plugins', 'bare'), {});

    const run = await runCli(['plugins', 'doctor', '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { ok: boolean; problems: Array<{ plugin?: string; problem: string; fix: string }> };
    expect(report.ok).toBe(false);
    const byPlugin = Object.fromEntries(report.problems.map((p) => [p.plugin, p]));
    expect(byPlugin.greeter.problem).toContain('is writable by others (mode 757)');
    expect(byPlugin.greeter.fix).toBe(`chmod go-w ${installed}`);
    expect(byPlugin.linked.problem).toContain("leaves the plugin's directory through a symlink");
    expect(byPlugin.linked.fix).toContain("inside the plugin's directory");
    expect(byPlugin.bare.problem).toContain('no clawgate.plugin.json or openclaw.plugin.json');
    expect(byPlugin.bare.fix).toContain('add a clawgate.plugin.json');

    const text = await runCli(['plugins', 'doctor']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`greeter: not trusted: its directory ${installed} is writable by others`);
    expect(text.stdout).toContain(`  fix: chmod go-w ${installed}`);
  }, 120_000);
});
