import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import JSON5 from 'json5';
import { CliBuild, CliRun, runCli, transpileCli } from '../fixtures/cli-runner';

/**
 * `clawgate doctor [--fix]` on OpenClaw's legacy layouts, as a user runs it: a separate process on copies of the
 * fixtures (test/fixtures/openclaw-legacy/, written from the legacy shapes OpenClaw's docs describe).
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'openclaw-legacy');

let build: CliBuild;
let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-doctor-'));
  build = await transpileCli();
}, 120_000);
afterAll(async () => {
  await build?.remove();
  await fs.rm(tmp, { recursive: true, force: true });
});

/** A copy of the fixture in its own directory, and a runner of the CLI on it. */
async function copyOf(fixture: string): Promise<{ file: string; run: (...args: string[]) => Promise<CliRun> }> {
  const dir = await fs.mkdtemp(path.join(tmp, 'case-'));
  const file = path.join(dir, 'openclaw.json');
  await fs.copyFile(path.join(FIXTURES, fixture), file);
  const run = (...args: string[]) =>
    runCli(build.cliJs, [...args, '--config', file, '--state-dir', path.join(dir, 'state')], { HOME: dir, CLAWGATE_LOG_LEVEL: 'silent' });
  return { file, run };
}

describe('clawgate doctor', () => {
  it('refuses the legacy file naming where each key moved; doctor reports the moves and changes nothing', async () => {
    const { file, run } = await copyOf('pre-multi-agent.json5');
    const before = await fs.readFile(file, 'utf8');
    const validate = await runCli(build.cliJs, ['config', 'validate', file, '--state-dir', path.join(path.dirname(file), 'state')], {
      HOME: path.dirname(file),
    });
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain('error: agent: old OpenClaw setting, no longer accepted: moved to agents.defaults');
    expect(validate.stdout).toContain('error: logLevel: old OpenClaw setting, no longer accepted: moved to logging.level');

    const report = await run('doctor');
    expect(report.code).toBe(1);
    expect(report.stdout).toContain('to move: agent.model → agents.defaults.model');
    expect(report.stdout).toContain('run `clawgate doctor --fix`');
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    await expect(fs.stat(`${file}.bak`)).rejects.toThrow(/ENOENT/);
  });

  it('--fix moves the pre-multi-agent layout to its current places, keeps the backup and the other comments, and the file loads', async () => {
    const { file, run } = await copyOf('pre-multi-agent.json5');
    const before = await fs.readFile(file, 'utf8');
    const fixed = await run('doctor', '--fix');
    expect(fixed.stderr).toBe('');
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain(`ok: ${file} loads`);
    expect(await fs.readFile(`${file}.bak`, 'utf8')).toBe(before);
    const text = await fs.readFile(file, 'utf8');
    expect(text).toContain('// Kept as written: this section is already current.');
    expect(JSON5.parse(text)).toEqual({
      session: { dmScope: 'per-peer' },
      logging: { level: 'debug' },
      agents: {
        defaults: { model: 'echo/default', workspace: '~/assistant', heartbeat: { every: '30m' } },
        list: [{ id: 'main', default: true, identity: { name: 'Samantha', emoji: '🦥' } }],
      },
      messages: { groupChat: { mentionPatterns: ['@sam'], historyLimit: 20 }, queue: { mode: 'collect' } },
    });
    // A second run finds nothing left to move.
    const again = await run('doctor', '--fix');
    expect(again.stdout).toContain('no legacy settings');
    expect(again.code).toBe(0);
  });

  it('--fix moves old providers to channels and writes retired spellings in their current form', async () => {
    const { file, run } = await copyOf('old-providers.json5');
    const fixed = await run('doctor', '--fix');
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('moved: providers.telegram → channels.telegram');
    expect(fixed.stdout).toContain('moved: gateway.reload.mode "restart" → "hybrid"');
    expect(fixed.stdout).toContain('moved: bindings[0].match.provider → bindings[0].match.channel');
    // Loaded without the warnings of the retired spellings: they are gone from the file.
    expect(fixed.stdout).not.toMatch(/warning: (gateway\.reload\.mode|bindings\[0\]\.match\.provider)/);
    const doc = JSON5.parse(await fs.readFile(file, 'utf8'));
    expect(doc).toEqual({
      agents: { list: [{ id: 'helper', default: true }] },
      gateway: { reload: { mode: 'hybrid' } },
      bindings: [{ agentId: 'helper', match: { channel: 'telegram' } }],
      channels: { telegram: { enabled: true, dmPolicy: 'pairing' } },
    });
    expect(await fs.readFile(file, 'utf8')).toContain('// Chat channels were called providers before they were channels.');
  });

  it('leaves a setting whose new place is taken where it is, and says so', async () => {
    const { file, run } = await copyOf('pre-multi-agent.json5');
    await fs.writeFile(file, '{ agent: { model: "echo/a" }, agents: { defaults: { model: "echo/b" } } }');
    const fixed = await run('doctor', '--fix');
    expect(fixed.stdout).toContain('left: agent.model: agents.defaults.model is already set; merge the two by hand');
    expect(fixed.code).toBe(1);
    expect(JSON5.parse(await fs.readFile(file, 'utf8'))).toEqual({ agent: { model: 'echo/a' }, agents: { defaults: { model: 'echo/b' } } });
  });

  it('lists keys neither OpenClaw nor clawgate knows; --fix removes them, keeps comments, and leaves a likely typo to rename', async () => {
    const { file, run } = await copyOf('pre-multi-agent.json5');
    const written = [
      '{',
      '  // The ops agent stands in for main.',
      '  agents: { list: [{ id: "main", default: true }, { id: "ops", failoverFor: ["main"], failoverTriggers: ["down"] }] },',
      '  session: { dmScope: "per-peer", signalRouting: { enabled: true } },',
      '}',
    ].join('\n');
    await fs.writeFile(file, written);
    const report = await run('doctor');
    expect(report.code).toBe(1);
    expect(report.stdout).toContain('to remove: agents.list[1].failoverFor (a key neither OpenClaw nor clawgate knows)');
    expect(report.stdout).toContain('to remove: session.signalRouting (a key neither OpenClaw nor clawgate knows)');
    expect(await fs.readFile(file, 'utf8')).toBe(written);

    const fixed = await run('doctor', '--fix');
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('removed: agents.list[1].failoverTriggers (a key neither OpenClaw nor clawgate knows)');
    expect(fixed.stdout).toContain(`ok: ${file} loads`);
    expect(await fs.readFile(`${file}.bak`, 'utf8')).toBe(written);
    const text = await fs.readFile(file, 'utf8');
    expect(text).toContain('// The ops agent stands in for main.');
    expect(JSON5.parse(text)).toEqual({
      agents: { list: [{ id: 'main', default: true }, { id: 'ops' }] },
      session: { dmScope: 'per-peer' },
    });

    await fs.writeFile(file, '{ agents: { list: [{ id: "main", modle: "echo/x" }] } }');
    const typo = await run('doctor', '--fix');
    expect(typo.code).toBe(1);
    expect(typo.stdout).toContain('left: agents.list[0].modle: unknown key; did you mean "model"? rename it by hand');
    expect(JSON5.parse(await fs.readFile(file, 'utf8'))).toEqual({ agents: { list: [{ id: 'main', modle: 'echo/x' }] } });
  });
});
