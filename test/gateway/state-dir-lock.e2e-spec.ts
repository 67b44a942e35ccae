import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startGateway } from '../../src/bootstrap';
import { StateDirInUseError } from '../../src/common/fs/state-dir-lock';
import type { WireTask } from '../../src/modules/a2a-channel/model/task';
import { CliBuild, CliRun, REPO_ROOT, runCli, transpileCli } from '../fixtures/cli-runner';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { waitFor } from '../support/gateway-harness';

/**
 * One gateway per state dir, with real `clawgate gateway` processes: a second gateway on a busy state dir
 * stops before it touches anything (in particular before the restart sweep that fails unsettled A2A tasks),
 * a gateway killed with SIGKILL leaves nothing that blocks the next start, and of two started at the same
 * moment exactly one runs. See docs/configuration.md#one-gateway-per-state-directory.
 */

const HERMES = 'hermes-token-state-lock-01';
const EXIT_STATE_DIR_IN_USE = 75;

let build: CliBuild;
let tmp: string;
let model: FakeOpenAiServer;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-state-lock-'));
  model = await new FakeOpenAiServer().start();
  build = await transpileCli();
}, 60_000);
afterAll(async () => {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  await model?.close();
  await fs.rm(tmp, { recursive: true, force: true });
  await build?.remove();
});

const env = () => ({ HOME: tmp, CLAWGATE_LOG_LEVEL: 'silent' });

async function writeConfig(name: string): Promise<string> {
  const configPath = path.join(tmp, `${name}.json5`);
  await fs.writeFile(
    configPath,
    `{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}", timeoutMs: 600000 } } },
      agents: { list: [{ id: "slow", default: true, model: "fake/slow" }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${HERMES}" } } } },
    }`,
  );
  return configPath;
}

interface Started {
  kind: 'listening';
  child: ChildProcess;
  pid: number;
  url: string;
}
interface Exited {
  kind: 'exited';
  pid: number;
  code: number | null;
  stderr: string;
  stdout: string;
}

/** Spawns `clawgate gateway` and resolves when it either listens or exits. */
function spawnGateway(configPath: string, stateDir: string, port = 0): Promise<Started | Exited> {
  const child = spawn(process.execPath, [build.cliJs, 'gateway', '--config', configPath, '--state-dir', stateDir, '--port', String(port)], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, ...env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const pid = child.pid!;
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pid ${pid} neither listened nor exited within 90 s; stderr:\n${stderr}`)), 90_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /clawgate listening on (http:\/\/\S+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve({ kind: 'listening', child, pid, url: m[1] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ kind: 'exited', pid, code, stderr, stdout });
    });
  });
}

async function listening(configPath: string, stateDir: string): Promise<Started> {
  const started = await spawnGateway(configPath, stateDir);
  if (started.kind !== 'listening') throw new Error(`gateway exited with ${started.code} before listening; stderr:\n${started.stderr}`);
  return started;
}

async function stop(gateway: Started, signal: NodeJS.Signals): Promise<void> {
  const exited = once(gateway.child, 'exit');
  gateway.child.kill(signal);
  await exited;
  running.delete(gateway.child);
}

async function call(
  url: string,
  method: string,
  params: unknown,
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const res = await fetch(`${url}/a2a/v1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${HERMES}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
}

async function getTask(url: string, id: string): Promise<WireTask> {
  const answer = await call(url, 'GetTask', { id });
  if (!answer.result) throw new Error(`GetTask ${id}: ${JSON.stringify(answer.error)}`);
  return answer.result as WireTask;
}

async function sendImmediately(url: string, text: string, contextId: string): Promise<WireTask> {
  const answer = await call(url, 'SendMessage', {
    message: { messageId: `m-${contextId}`, role: 'ROLE_USER', contextId, parts: [{ text }] },
    configuration: { returnImmediately: true },
  });
  if (!answer.result) throw new Error(`SendMessage: ${JSON.stringify(answer.error)}`);
  return (answer.result as { task: WireTask }).task;
}

/** The refusal as the CLI prints it: the message, the documented exit code, no stack trace. */
function expectRefused(run: Pick<CliRun, 'code' | 'stderr' | 'stdout'>, stateDir: string, holderPid: number): void {
  expect(run.stderr).toContain(`clawgate: state dir ${stateDir} is in use by pid ${holderPid}`);
  expect(run.code).toBe(EXIT_STATE_DIR_IN_USE);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stdout).not.toContain('listening');
}

describe('one gateway per state dir (e2e, real processes)', () => {
  it('a second gateway on the same state dir exits before touching it; the first one’s WORKING tasks complete', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    model.reset();
    model.always(model.held(gate, model.text('slow answer')));
    const configPath = await writeConfig('busy');
    const stateDir = path.join(tmp, 'state-busy');

    const a = await listening(configPath, stateDir);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const task = await sendImmediately(a.url, `slow task ${i}`, `ctx-busy-${i}`);
      expect(task.status.state).toBe('TASK_STATE_WORKING');
      ids.push(task.id);
    }
    // Every run is really in flight: the model holds all five requests.
    await waitFor('5 held model calls', async () => model.requests.length >= 5, 30_000);

    // A's own port: without the lock, B would get as far as binding it (EADDRINUSE), after its modules started.
    const b = await runCli(
      build.cliJs,
      ['gateway', '--config', configPath, '--state-dir', stateDir, '--port', new URL(a.url).port],
      env(),
      90_000,
    );
    expectRefused(b, stateDir, a.pid);

    for (const id of ids) expect((await getTask(a.url, id)).status.state).toBe('TASK_STATE_WORKING');
    release();
    const settled = await waitFor(
      'the 5 tasks to settle',
      async () => {
        const tasks = await Promise.all(ids.map((id) => getTask(a.url, id)));
        return tasks.every((t) => t.status.state !== 'TASK_STATE_WORKING') && tasks;
      },
      30_000,
    );
    for (const task of settled) {
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts[0].parts).toEqual([{ text: 'slow answer' }]);
    }
    await stop(a, 'SIGTERM');
  }, 240_000);

  it('after kill -9 the next gateway starts, even when the dead one’s pid now belongs to another process', async () => {
    model.reset();
    model.always(model.text('quick answer'));
    const configPath = await writeConfig('killed');
    const stateDir = path.join(tmp, 'state-killed');

    const first = await listening(configPath, stateDir);
    await stop(first, 'SIGKILL');
    // What the dead gateway left behind names it...
    const holderFile = path.join(stateDir, 'gateway.pid');
    const left = JSON.parse(await fs.readFile(holderFile, 'utf8')) as { pid: number };
    expect(left.pid).toBe(first.pid);
    // ...and a reused pid must not keep the state dir busy: point it at a live process that is no gateway.
    await fs.writeFile(holderFile, JSON.stringify({ ...left, pid: process.pid }));

    const second = await listening(configPath, stateDir);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    // The restarted gateway really holds the state dir now.
    const third = await spawnGateway(configPath, stateDir);
    if (third.kind !== 'exited') throw new Error('a third gateway started on a state dir in use');
    expectRefused(third, stateDir, second.pid);
    // A normal stop lets go of it.
    await stop(second, 'SIGTERM');
    await stop(await listening(configPath, stateDir), 'SIGTERM');
  }, 240_000);

  it('of two gateways started at the same moment on one state dir, exactly one runs', async () => {
    model.reset();
    model.always(model.text('quick answer'));
    const configPath = await writeConfig('race');
    // A few rounds, each on a fresh state dir: every one must have exactly one winner.
    for (let round = 0; round < 3; round++) {
      const stateDir = path.join(tmp, `state-race-${round}`);
      const outcomes = await Promise.all([spawnGateway(configPath, stateDir), spawnGateway(configPath, stateDir)]);
      const winners = outcomes.filter((o): o is Started => o.kind === 'listening');
      const losers = outcomes.filter((o): o is Exited => o.kind === 'exited');
      expect(winners.map((w) => w.pid)).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expectRefused(losers[0], stateDir, winners[0].pid);
      expect((await fetch(`${winners[0].url}/healthz`)).status).toBe(200);
      await stop(winners[0], 'SIGTERM');
    }
  }, 240_000);

  it('in one process: a refused second start leaves the first one’s lock intact, and close() releases it', async () => {
    const configPath = await writeConfig('in-process');
    const stateDir = path.join(tmp, 'state-in-process');
    const options = { configPath, stateDir, portOverride: 0, env: { HOME: tmp } };

    const first = await startGateway(options);
    try {
      const refused: unknown = await startGateway(options).then(
        async (second) => {
          await second.close();
          return second;
        },
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(StateDirInUseError);
      expect((refused as StateDirInUseError).detail).toBe(`state dir ${stateDir} is in use by pid ${process.pid}`);
      // The refused attempt opened the lock file too; the lock must still hold against another process.
      const other = await spawnGateway(configPath, stateDir);
      if (other.kind !== 'exited') throw new Error('another process started on a state dir this process holds');
      expectRefused(other, stateDir, process.pid);
    } finally {
      await first.close();
    }
    const again = await startGateway(options);
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
    await again.close();
  }, 120_000);

  it('keeps the lock through a garbage collection while only the app is referenced (the CLI keeps no handle)', async () => {
    v8.setFlagsFromString('--expose_gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const configPath = await writeConfig('collected');
    const stateDir = path.join(tmp, 'state-collected');
    // Like the CLI: nothing of the RunningGateway is kept but what serves (the app); started in a function of its
    // own, so no temporary of this test's frame holds the rest.
    const startKeepingOnlyTheApp = async () => (await startGateway({ configPath, stateDir, portOverride: 0, env: { HOME: tmp } })).app;
    const app = await startKeepingOnlyTheApp();
    gc();
    await new Promise((r) => setTimeout(r, 200));
    gc();
    const other = await spawnGateway(configPath, stateDir);
    if (other.kind !== 'exited') throw new Error('another process started on a state dir this process holds');
    expectRefused(other, stateDir, process.pid);
    await app.close();
  }, 120_000);
});
