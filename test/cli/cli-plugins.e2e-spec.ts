import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { CliBuild, CliRun, REPO_ROOT, runCli as runCliProcess, transpileCli } from '../fixtures/cli-runner';
import { greetingManifest, writePluginDir } from '../support/plugin-dirs';

/**
 * `clawgate plugins list|info|enable|disable` and `clawgate config schema` as a user runs them: a separate
 * process, real plugin directories and a commented openclaw.json in a temp dir. No plugin code runs.
 */

const SECRET = 'greeter-signing-key-0001';
const CONFIG = `// my gateway
{
  agents: { list: [{ id: "main" }] },
  plugins: {
    // plugins next to this file
    load: { paths: ["./plugins"] },
    entries: {
      greeter: { config: { greeting: "hello", signingKey: "${SECRET}" } },
    },
  },
  channels: { chatty: { botToken: "chatty-bot-token-0001" } },
}
`;

const CHATTY = {
  id: 'chatty',
  configSchema: { type: 'object', additionalProperties: false, properties: {} },
  contracts: { channels: ['chatty'] },
  channelConfigs: {
    chatty: {
      schema: { type: 'object', additionalProperties: false, required: ['botToken'], properties: { botToken: { type: 'string' } } },
      secrets: ['botToken'],
    },
  },
};

let build: CliBuild;
let tmp: string;
let configPath: string;
let stateDir: string;

function runCli(args: string[]): Promise<CliRun> {
  return runCliProcess(build.cliJs, [...args, '--config', configPath, '--state-dir', stateDir], {
    HOME: tmp,
    CLAWGATE_LOG_LEVEL: 'silent',
  });
}

async function listed(): Promise<Array<{ id: string; state: string; reason: string | null; source: string }>> {
  const run = await runCli(['plugins', 'list', '--json']);
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { plugins: Array<{ id: string; state: string; reason: string | null; source: string }> }).plugins;
}

beforeAll(async () => {
  build = await transpileCli();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-cli-plugins-'));
  configPath = path.join(tmp, 'openclaw.json');
  stateDir = path.join(tmp, 'state');
  await fs.writeFile(configPath, CONFIG);
  await writePluginDir(path.join(tmp, 'plugins', 'greeter'), { manifest: greetingManifest('greeter') });
  await writePluginDir(path.join(tmp, 'plugins', 'chatty'), { manifest: CHATTY });
  const open = await writePluginDir(path.join(tmp, 'plugins', 'open'), { manifest: greetingManifest('open') });
  await fs.chmod(open, 0o757);
  await writePluginDir(path.join(stateDir, 'extensions', 'voice'), {
    manifest: greetingManifest('voice'),
    manifestName: 'openclaw.plugin.json',
  });
}, 120_000);

afterAll(async () => {
  await build?.remove();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

describe('clawgate plugins', () => {
  it('lists every plugin found with its state and why', async () => {
    const plugins = await listed();
    expect(plugins.map((p) => [p.id, p.source, p.state])).toEqual([
      ['chatty', 'load-path', 'enabled'],
      ['greeter', 'load-path', 'enabled'],
      ['open', 'load-path', 'refused'],
      ['voice', 'extensions', 'disabled'],
      // Bundled, activated by their channels: disabled while channels.telegram / .discord / .slack are not configured.
      ['telegram', 'bundled', 'disabled'],
      ['discord', 'bundled', 'disabled'],
      ['slack', 'bundled', 'disabled'],
      // Bundled, active at start: its route answers 404 while channels.http.enabled is not true.
      ['http', 'bundled', 'enabled'],
      // Bundled, active at start: /v1 answers 404 while gateway.http.endpoints.chatCompletions.enabled is not true.
      ['openai-endpoint', 'bundled', 'enabled'],
      // Bundled, active at start: the A2A channel; /a2a answers 404 while channels.a2a.enabled is not true.
      ['a2a', 'bundled', 'enabled'],
    ]);
    expect(plugins.find((p) => p.id === 'open')?.reason).toMatch(/^not trusted: its directory .*open is writable by others \(mode 757\)/);
    expect(plugins.find((p) => p.id === 'voice')?.reason).toContain('clawgate plugins enable voice');

    const text = await runCli(['plugins', 'list']);
    expect(text.stdout).toContain('greeter 1.2.3  enabled');
    expect(text.stdout).toContain('open 1.2.3  refused');
  }, 60_000);

  it('shows one plugin with its secrets masked, and names an unknown one with did-you-mean', async () => {
    const info = await runCli(['plugins', 'info', 'greeter', '--json']);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({
      id: 'greeter',
      state: 'enabled',
      version: '1.2.3',
      contracts: { tools: ['greet'], providers: [], channels: [] },
      config: { greeting: 'hello', signingKey: '[redacted]' },
    });
    expect(info.stdout).not.toContain(SECRET);
    const text = await runCli(['plugins', 'info', 'greeter']);
    expect(text.stdout).toContain('greeter (greeter plugin): enabled');
    expect(text.stdout).not.toContain(SECRET);

    const unknown = await runCli(['plugins', 'info', 'greeterr']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no plugin "greeterr" (did you mean "greeter"?); the plugins found are chatty, greeter, open, voice');
  }, 60_000);

  it('enables and disables by editing plugins.entries.<id>.enabled, keeping the comments', async () => {
    const enable = await runCli(['plugins', 'enable', 'voice']);
    expect(enable.code).toBe(0);
    expect(enable.stdout).toMatch(/^enabled plugin voice \(revision [0-9a-f]{12}; config /);
    const disable = await runCli(['plugins', 'disable', 'greeter', '--json']);
    expect(disable.code).toBe(0);
    expect(JSON.parse(disable.stdout)).toMatchObject({ id: 'greeter', enabled: false, configPath });

    const text = await fs.readFile(configPath, 'utf8');
    expect(text).toContain('// my gateway');
    expect(text).toContain('// plugins next to this file');
    const states = Object.fromEntries((await listed()).map((p) => [p.id, [p.state, p.reason]]));
    expect(states.voice).toEqual(['enabled', null]);
    expect(states.greeter).toEqual(['disabled', 'plugins.entries.greeter.enabled is false']);

    const missing = await runCli(['plugins', 'enable', 'nobody']);
    expect(missing.code).toBe(1);
    expect(await fs.readFile(configPath, 'utf8')).toBe(text);
  }, 90_000);
});

describe('clawgate config schema', () => {
  it("includes the plugins' config and channel schemas of the config it is given", async () => {
    const run = await runCli(['config', 'schema']);
    expect(run.code).toBe(0);
    const schema = JSON.parse(run.stdout) as { definitions: Record<string, { properties: Record<string, any> }> };
    const entries = schema.definitions.PluginsConfig.properties.entries.properties;
    expect(entries.greeter.allOf[1].properties.config).toEqual(greetingManifest('greeter').configSchema);
    expect(schema.definitions.ChannelsConfig.properties.chatty).toMatchObject(CHATTY.channelConfigs.chatty.schema);
    // The refused plugin's schemas are not trusted: not in it.
    expect(entries.open).toBeUndefined();
  }, 60_000);

  it('validates a channel section against the schema of the plugin that provides it', async () => {
    const text = await fs.readFile(configPath, 'utf8');
    await fs.writeFile(configPath, text.replace('botToken: "chatty-bot-token-0001"', 'bot_token: "chatty-bot-token-0001"'));
    const run = await runCliProcess(build.cliJs, ['config', 'validate', configPath, '--state-dir', stateDir], {
      HOME: tmp,
      CLAWGATE_LOG_LEVEL: 'silent',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('error: channels.chatty.bot_token: unknown key (did you mean "botToken"?)');
    expect(run.stdout).toContain('error: channels.chatty.botToken: is required');
    await fs.writeFile(configPath, text);
  }, 60_000);
});

/**
 * `clawgate plugins list | head -1`: the reader closes the pipe before the command has said everything. Here it is
 * closed before the command writes at all, so every run meets the closed pipe (EPIPE) on its first write.
 */
function runWithReaderGone(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [build.cliJs, ...args, '--config', configPath, '--state-dir', stateDir], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: tmp, CLAWGATE_LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('clawgate output to a reader that goes away', () => {
  it.each([[['plugins', 'list']], [['plugins', 'list', '--json']], [['config', 'schema']]])(
    '%j ends quietly with code 0 when stdout is closed early (EPIPE)',
    async (args) => {
      const run = await runWithReaderGone(args);
      expect(run).toEqual({ code: 0, stderr: '' });
    },
  );
});
