import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { requireProgram } from './support/system-program';

/**
 * deploy/clawgate.service checked by systemd's own tools, offline (no running systemd is needed):
 * `systemd-analyze verify` parses every setting and checks that ExecStart's program exists, and
 * `systemd-analyze security --offline=yes` rates the sandboxing. Neither starts the service.
 */

const UNIT = path.resolve(__dirname, '../../deploy/clawgate.service');
const run = promisify(execFile);

interface Outcome {
  code: number;
  output: string;
}

async function analyze(args: string[]): Promise<Outcome> {
  const binary = await requireProgram('systemd-analyze', 'sudo apt-get install -y systemd  (Debian/Ubuntu)');
  try {
    const { stdout, stderr } = await run(binary, args, { timeout: 30_000 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('deploy/clawgate.service under systemd-analyze', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-unit-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  /** The unit as shipped, except ExecStart's node: this machine's, wherever it is installed. */
  async function unitCopy(edit: (text: string) => string = (t) => t): Promise<string> {
    const text = (await fs.readFile(UNIT, 'utf8')).replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `);
    const file = path.join(dir, 'clawgate.service');
    await fs.writeFile(file, edit(text));
    return file;
  }

  it('verifies clean: every setting known and well-formed, the program present', async () => {
    const outcome = await analyze(['verify', await unitCopy()]);
    expect(outcome).toEqual({ code: 0, output: '' });
  });

  it('would report a broken unit (so the clean result above means something)', async () => {
    const outcome = await analyze([
      'verify',
      await unitCopy((t) => t.replace('NoNewPrivileges=yes', 'NoNewPrivileges=perhaps\nProtectSytem=strict')),
    ]);
    expect(outcome.output).toContain('Failed to parse boolean value');
    expect(outcome.output).toContain("Unknown key 'ProtectSytem'");
  });

  it('rates the sandboxing "OK" or better (exposure at most 2.0 of 10)', async () => {
    const outcome = await analyze(['security', '--offline=yes', await unitCopy()]);
    const level = /Overall exposure level for clawgate\.service: ([\d.]+)/.exec(outcome.output);
    expect(level).not.toBeNull();
    expect(Number(level![1])).toBeLessThanOrEqual(2.0);
  });
});
