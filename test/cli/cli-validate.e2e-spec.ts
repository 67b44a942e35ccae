import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../src/modules/config/pipeline/load-config';
import { CliBuild, CliRun, REPO_ROOT, runCli as runCliProcess, transpileCli } from '../fixtures/cli-runner';

/**
 * `clawgate config validate` and `clawgate config schema` as a user runs them: a separate process, real
 * files, the exit code and stdout. The CLI is transpiled once from the current sources (see
 * fixtures/cli-runner.ts for why not dist/), so the test works in a fresh clone right after `npm ci`.
 */

let build: CliBuild;

/** A clean environment: nothing from the developer's shell may decide the outcome. */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCliProcess(build.cliJs, args, { HOME: tmp, CLAWGATE_LOG_LEVEL: 'silent', ...env });
}

/** Runs jobs with at most `limit` CLI processes at once (each one is a full Node start). */
async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

let tmp: string;

/** Writes `files` into a fresh directory under tmp and returns the path of its openclaw.json. */
async function writeCase(name: string, files: Record<string, string>): Promise<string> {
  const dir = path.join(tmp, name, 'config');
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  }
  return path.join(dir, 'openclaw.json');
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-cli-validate-'));
  build = await transpileCli();
}, 60_000);
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
  await build?.remove();
});

interface BadCase {
  name: string;
  files: Record<string, string>;
  /** Each must appear in stdout: the dotted path and/or file:line:col, plus what is wrong. */
  expected: Array<string | RegExp>;
  env?: NodeJS.ProcessEnv;
}

const BAD: BadCase[] = [
  {
    name: 'unknown-nested-key',
    files: { 'openclaw.json': '{ agents: { list: [{ id: "a" }, { id: "b", modle: "echo/x" }] } }' },
    expected: ['agents.list[1].modle: unknown key (did you mean "model"?)'],
  },
  {
    // Keys OpenClaw does not know either: recognising OpenClaw's settings lets none of them through.
    name: 'typos-openclaw-does-not-know',
    files: { 'openclaw.json': '{ gateway: { contrlUi: {} }, messages: { ackReactoinScope: "all" }, hoks: {} }' },
    expected: [
      'error: messages.ackReactoinScope: unknown key (did you mean "ackReactionScope"?)',
      'error: gateway.contrlUi: unknown key (did you mean "controlUi"?)',
      'error: hoks: unknown key (did you mean "hooks"?)',
    ],
  },
  {
    // Typos inside the sections clawgate implements from OpenClaw's layout: each named with the key it meant.
    name: 'typos-in-implemented-sections',
    files: {
      'openclaw.json':
        '{ gateway: { tls: { enabled: false, certPth: "/c.pem" } }, models: { providers: { local: { baseUrll: "http://127.0.0.1:1/v1" } } },' +
        ' agents: { list: [{ id: "a" }] }, bindings: [{ agentId: "a", match: { chanell: "http" } }] }',
    },
    expected: [
      'error: gateway.tls.certPth: unknown key (did you mean "certPath"?)',
      'error: models.providers.local.baseUrll: unknown key (did you mean "baseUrl"?)',
      'error: bindings[0].match.chanell: unknown key (did you mean "channel"?)',
    ],
  },
  {
    name: 'wrong-enum',
    files: { 'openclaw.json': '{ tools: { sessions: { visibility: "everyone" } } }' },
    expected: ['tools.sessions.visibility: must be one of: self, tree, agent, all'],
  },
  {
    name: 'bad-peer-name',
    files: { 'openclaw.json': '{ channels: { a2a: { peers: { "Hermes!": { token: "t" } } } } }' },
    expected: ['channels.a2a.peers: invalid name "Hermes!"'],
  },
  {
    name: 'include-cycle',
    files: {
      'openclaw.json': '{ $include: "a.json5" }',
      'a.json5': '{ $include: "b.json5", agents: {} }',
      'b.json5': '{ $include: "a.json5" }',
    },
    expected: [/b\.json5: \$include: include cycle: a\.json5 -> b\.json5 -> a\.json5/],
  },
  {
    name: 'include-escape',
    files: { 'openclaw.json': '{ agents: { $include: "../secrets.json5" } }', '../secrets.json5': '{}' },
    expected: [/openclaw\.json: agents\.\$include: "\$include" target \.\.\/secrets\.json5 resolves outside the config directory/],
  },
  {
    name: 'missing-env-non-secret',
    files: { 'openclaw.json': '{ gateway: { publicUrl: "${PUBLIC_URL}" } }' },
    expected: ['gateway.publicUrl: missing environment variable PUBLIC_URL'],
  },
  {
    name: 'duplicate-agent-id',
    files: { 'openclaw.json': '{ agents: { list: [{ id: "Main" }, { id: "support" }, { id: " main " }] } }' },
    expected: ['agents.list[2].id: duplicate agent id "main"', 'also at agents.list[0]'],
  },
  {
    name: 'reply-timeout-out-of-range',
    files: { 'openclaw.json': '{ channels: { a2a: { replyTimeoutMs: 1000 } } }' },
    expected: ['channels.a2a.replyTimeoutMs: must not be less than 5000 (got 1000)'],
  },
  {
    name: 'bad-cidr',
    files: { 'openclaw.json': '{ gateway: { trustedProxies: ["10.0.0.0/8", "10.1.0.0/33"] } }' },
    expected: ['gateway.trustedProxies: "10.1.0.0/33": not an IP address or CIDR block'],
  },
  {
    name: 'reserved-key-in-a-string-map',
    files: { 'openclaw.json': '{ gateway: { admin: { sso: { roleMapping: { constructor: "admin" } } } } }' },
    expected: ['error: gateway.admin.sso.roleMapping.constructor: reserved key name'],
  },
  {
    name: 'proto-key-in-a-binding',
    files: { 'openclaw.json': '{ bindings: [{ agentId: "main", match: { channel: "http", __proto__: { accountId: "*" } } }] }' },
    expected: ['error: bindings[0].match.__proto__: reserved key name'],
  },
  {
    name: 'nested-too-deeply',
    files: { 'openclaw.json': `{ agents: ${'['.repeat(20_000)}${']'.repeat(20_000)} }` },
    expected: [/openclaw\.json: agents(\[0\]){63}: nested too deeply: objects and arrays may nest at most 64 levels/],
  },
  {
    name: 'malformed-json5',
    // The stray comma is on line 3, column 25.
    files: { 'openclaw.json': '{\n  agents: {\n    list: [{ id: "a" }, , ],\n  },\n}\n' },
    expected: [/openclaw\.json:3:25: invalid character ','/],
  },
];

describe('clawgate config validate', () => {
  let runs: Array<{ bad: BadCase; file: string; run: CliRun }>;

  beforeAll(async () => {
    const prepared = [];
    for (const bad of BAD) prepared.push({ bad, file: await writeCase(bad.name, bad.files) });
    runs = await pool(prepared, 3, async ({ bad, file }) => ({
      bad,
      file,
      run: await runCli(['config', 'validate', file, '--state-dir', path.join(tmp, 'state')], bad.env),
    }));
  }, 120_000);

  it.each(BAD.map((b) => b.name))('%s: exit 1, stdout names where and what', (name) => {
    const { run, file, bad } = runs.find((r) => r.bad.name === name)!;
    const expected = bad.expected;
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: '' });
    for (const e of expected) expect(run.stdout).toEqual(typeof e === 'string' ? expect.stringContaining(e) : expect.stringMatching(e));
    // Every error line is prefixed and the summary names the file that was checked.
    expect(run.stdout).toMatch(/^error: /m);
    expect(run.stdout.trimEnd().split('\n').pop()).toMatch(new RegExp(`^\\d+ errors? in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    expect(run.stdout).not.toContain('ok (revision');
  });

  it('prints ok with the 12-hex revision of the normalized config, the same the gateway computes', async () => {
    const file = await writeCase('good', {
      'openclaw.json':
        '// a comment\n{ agents: { list: [{ id: "main" }, { id: "Support Desk" }] }, tools: { agentToAgent: { enabled: true } } }\n',
    });
    const stateDir = path.join(tmp, 'good-state');
    const run = await runCli(['config', 'validate', file, '--state-dir', stateDir]);
    expect(run).toEqual({
      code: 0,
      signal: null,
      stdout: expect.stringMatching(/^ok \(revision [0-9a-f]{12}; config .+, state dir .+\)\n$/),
      stderr: '',
    });
    const inProcess = await loadConfig({ configPath: file, stateDir, homeDir: tmp, env: { HOME: tmp } });
    if (!inProcess.ok) throw new Error(JSON.stringify(inProcess.errors));
    expect(run.stdout).toBe(`ok (revision ${inProcess.snapshot.revision}; config ${file}, state dir ${stateDir})\n`);
  }, 60_000);

  it('prints warnings and still exits 0', async () => {
    const file = await writeCase('warnings', {
      'openclaw.json': `{
        agents: { list: [{ id: "main", tools: { allow: ["exec"] } }] },
        bindings: [{ agentId: "main", match: { channel: "telegram", account: "dev" } }],
        channels: { a2a: { peers: { hermes: { token: "\${A2A_HERMES_TOKEN}" } } } },
      }`,
    });
    const run = await runCli(['config', 'validate', file, '--state-dir', path.join(tmp, 'state')]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.pop()).toMatch(/^ok \(revision [0-9a-f]{12}; config .+, state dir .+\)$/);
    expect(lines.every((l) => l.startsWith('warning: '))).toBe(true);
    expect(run.stdout).toContain('warning: agents.list[0].tools.allow: tools not provided by this gateway are ignored: "exec"');
    expect(run.stdout).toContain('warning: bindings[0].match.account: is deprecated');
    expect(run.stdout).toContain(
      'warning: bindings[0].match.channel: channel "telegram" is provided by plugin telegram, which does not run (activated by its channel',
    );
    expect(run.stdout).toContain('warning: channels.a2a.peers.hermes.token: environment variable A2A_HERMES_TOKEN is not set');
  }, 60_000);

  it("loads an openclaw.json in OpenClaw's shape: the settings it only recognises are warnings grouped by section, exit 0", async () => {
    const file = await writeCase('openclaw-shaped', {
      'openclaw.json': await fs.readFile(path.join(REPO_ROOT, 'test', 'fixtures', 'openclaw-settings.json5'), 'utf8'),
    });
    // EXAMPLE_TELEGRAM_BOT_TOKEN is not set: the channel that names it is never read.
    const run = await runCli(['config', 'validate', file, '--state-dir', path.join(tmp, 'state')]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      'warning: recognised OpenClaw settings, not supported by clawgate (4): meta, wizard, env, commands',
      'warning: gateway: recognised OpenClaw settings, not supported by clawgate (2): gateway.controlUi, gateway.tailscale',
      'warning: agents: recognised OpenClaw settings, not supported by clawgate (4): agents.defaults.compaction, agents.defaults.maxConcurrent, agents.list[0].subagents.allowAgents, agents.list[1].identity.theme',
      'warning: channels.whatsapp: no plugin provides channel whatsapp: its settings are not used',
      expect.stringMatching(/^ok \(revision [0-9a-f]{12}; config .+, state dir .+\)$/),
    ]);
  }, 60_000);

  it('takes the file from OPENCLAW_CONFIG_PATH when no path is given, and never prints a secret', async () => {
    const secret = 'tok-3f1e-very-secret-value';
    const file = await writeCase('env-path', {
      // The token substituted into a place where an object belongs: the error must not echo it.
      'openclaw.json': '{ channels: { a2a: { peers: { hermes: "${HERMES}" } } } }',
    });
    const run = await runCli(['config', 'validate'], {
      OPENCLAW_CONFIG_PATH: file,
      OPENCLAW_STATE_DIR: path.join(tmp, 'state'),
      HERMES: secret,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('error: channels.a2a.peers.hermes: must be an object (got a string)');
    expect(run.stdout).toContain(`1 error in ${file}`);
    expect(run.stdout + run.stderr).not.toContain(secret);
  }, 60_000);

  it('reports a missing file as an error, not a crash', async () => {
    const missing = path.join(tmp, 'nope', 'openclaw.json');
    const run = await runCli(['config', 'validate', missing]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`error: ${missing}: config file not found`);
    expect(run.stderr).toBe('');
  }, 60_000);
});

describe('clawgate config schema', () => {
  it('prints valid JSON equal to schemas/openclaw.schema.json', async () => {
    const run = await runCli(['config', 'schema']);
    expect(run.code).toBe(0);
    const committed = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'schemas', 'openclaw.schema.json'), 'utf8'));
    expect(JSON.parse(run.stdout)).toEqual(committed);
  }, 60_000);
});
