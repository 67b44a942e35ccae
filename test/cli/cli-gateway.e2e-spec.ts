import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliBuild, REPO_ROOT, responseLogEnv, runCli, transpileCli } from '../fixtures/cli-runner';

/**
 * `clawgate gateway` as an operator (or systemd, or a container runtime) runs it: a real process that
 * refuses an invalid config with sysexits EX_CONFIG (78), or listens, answers, and stops on SIGTERM.
 */

let build: CliBuild;
let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-cli-gateway-'));
  build = await transpileCli();
}, 60_000);
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
  await build?.remove();
});

const env = () => ({ HOME: tmp, CLAWGATE_LOG_LEVEL: 'silent' });

describe('clawgate gateway', () => {
  it('exits 78 on an invalid config and lists every error on stderr', async () => {
    const config = path.join(tmp, 'invalid.json5');
    await fs.writeFile(config, '{ agents: { list: [{ id: "a", modle: "echo/x" }] }, tools: { sessions: { visibility: "everyone" } } }');
    const stateDir = path.join(tmp, 'state-invalid');
    const run = await runCli(build.cliJs, ['gateway', '--config', config, '--state-dir', stateDir, '--port', '0'], env());
    expect(run.code).toBe(78);
    expect(run.stderr).toContain(`clawgate: invalid config ${config}; not starting:`);
    expect(run.stderr).toContain('  agents.list[0].modle: unknown key (did you mean "model"?)');
    expect(run.stderr).toContain('  tools.sessions.visibility: must be one of: self, tree, agent, all');
    expect(run.stdout).not.toContain('listening');
    // Nothing good was loaded, so there is no last-good copy, and the user's file was left as written.
    await expect(fs.access(path.join(stateDir, 'openclaw.last-good.json'))).rejects.toThrow();
    expect(await fs.readFile(config, 'utf8')).toContain('modle');
  }, 60_000);

  it.each([
    {
      what: 'a key named constructor',
      file: 'reserved-key.json5',
      text: '{ models: { providers: { local: { api: "echo", headers: { constructor: "x" } } } } }',
      expected: '  models.providers.local.headers.constructor: reserved key name',
    },
    {
      what: '20,000 levels of nesting',
      file: 'too-deep.json5',
      text: `{ agents: ${'{ a: '.repeat(20_000)}1${' }'.repeat(20_000)} }`,
      expected: `too-deep.json5: agents${'.a'.repeat(63)}: nested too deeply: objects and arrays may nest at most 64 levels`,
    },
  ])(
    'exits 78 on $what, naming the path',
    async ({ file, text, expected }) => {
      const config = path.join(tmp, file);
      await fs.writeFile(config, text);
      const run = await runCli(build.cliJs, ['gateway', '--config', config, '--state-dir', path.join(tmp, `state-${file}`)], env());
      expect(run.code).toBe(78);
      expect(run.stderr).toContain(`clawgate: invalid config ${config}; not starting:`);
      expect(run.stderr).toContain(expected);
      expect(run.stdout).not.toContain('listening');
    },
    60_000,
  );

  it('exits 69 when its PostgreSQL is unreachable, naming the server and never the password', async () => {
    const config = path.join(tmp, 'postgres.json5');
    await fs.writeFile(config, '{ gateway: { state: { backend: "postgres", url: "${DATABASE_URL}" } } }');
    // Port 1 on loopback: nothing listens there.
    const url = 'postgres://clawgate:never-print-this@127.0.0.1:1/clawgate';
    const run = await runCli(build.cliJs, ['gateway', '--config', config, '--state-dir', path.join(tmp, 'state-pg'), '--port', '0'], {
      ...env(),
      DATABASE_URL: url,
    });
    expect(run.code).toBe(69);
    // The session store connects first (at module init), before the A2A task store's first call.
    expect(run.stderr).toContain(
      'clawgate: the session store could not start: PostgreSQL at 127.0.0.1:1/clawgate is unreachable or refused',
    );
    expect(run.stderr).not.toContain('never-print-this');
    expect(run.stdout).not.toContain('listening');
  }, 60_000);

  it('exits 78 on a missing config file', async () => {
    const run = await runCli(
      build.cliJs,
      ['gateway', '--config', path.join(tmp, 'missing.json'), '--state-dir', path.join(tmp, 's')],
      env(),
    );
    expect(run.code).toBe(78);
    expect(run.stderr).toContain('config file not found');
  }, 60_000);

  it('exits 75 when the port is taken, naming the address and suggesting --port', async () => {
    const config = path.join(tmp, 'port-taken.json5');
    await fs.writeFile(config, '{ agents: { list: [{ id: "main" }] } }');
    const squatter = net.createServer();
    squatter.listen(0, '127.0.0.1');
    await once(squatter, 'listening');
    const { port } = squatter.address() as net.AddressInfo;
    try {
      const args = ['gateway', '--config', config, '--state-dir', path.join(tmp, 'state-port-taken'), '--port', String(port)];
      const run = await runCli(build.cliJs, args, env());
      expect(run.code).toBe(75);
      expect(run.stderr).toContain(`clawgate: 127.0.0.1:${port} is already in use`);
      expect(run.stderr).toContain('start with --port <n> (0 picks a free one)');
      // Started by `npm start` (npm names the script), the option goes after `--`: say it as the user types it.
      const npm = await runCli(build.cliJs, args, { ...env(), npm_command: 'start', npm_lifecycle_event: 'start' });
      expect(npm.code).toBe(75);
      expect(npm.stderr).toContain('start with `npm start -- --port <n>` (0 picks a free one)');
    } finally {
      squatter.close();
    }
  }, 60_000);

  it('rejects a --port that is not a port before doing anything', async () => {
    const run = await runCli(build.cliJs, ['gateway', '--port', '70000'], env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('must be an integer 0..65535');
  }, 60_000);

  describe('with a valid config', () => {
    let child: ChildProcess;
    let url: string;
    let stdout = '';
    const stateDir = () => path.join(tmp, 'state-valid');

    beforeAll(async () => {
      const config = path.join(tmp, 'valid.json5');
      // gateway.port is set on purpose: --port 0 must win over it.
      await fs.writeFile(config, '{ gateway: { port: 1 }, agents: { list: [{ id: "main" }] } }');
      child = spawn(process.execPath, [build.cliJs, 'gateway', '--config', config, '--state-dir', stateDir(), '--port', '0'], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH, ...responseLogEnv(), ...env() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "listening on" line within 45 s; stderr:\n${stderr}`)), 45_000);
        child.stdout!.on('data', (d: Buffer) => {
          stdout += d.toString();
          const m = /clawgate listening on (http:\/\/\S+)/.exec(stdout);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`gateway exited with ${code} before listening; stderr:\n${stderr}`));
        });
      });
    }, 60_000);

    afterAll(() => {
      // Only if a failed assertion left it running; the test below normally stops it.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });

    it('listens on a free port chosen by --port 0 and answers /healthz', async () => {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Number(new URL(url).port)).toBeGreaterThan(1);
      const res = await fetch(`${url}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
      await expect(fs.access(path.join(stateDir(), 'openclaw.last-good.json'))).resolves.toBeUndefined();
    });

    it('stops on SIGTERM and releases the port', async () => {
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const [code, signal] = await Promise.race([
        exited,
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('still running 15 s after SIGTERM')), 15_000))),
      ]).finally(() => clearTimeout(timer));
      // Nest's shutdown hook closes the app and then re-raises the signal, so either outcome is a clean stop.
      expect(code === 0 || signal === 'SIGTERM').toBe(true);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    }, 30_000);
  });
});
