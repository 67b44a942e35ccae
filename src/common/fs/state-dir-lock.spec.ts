import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { lockStateDir, STATE_DIR_HOLDER_FILE, STATE_DIR_LOCK_FILE, StateDirHolder, StateDirInUseError } from './state-dir-lock';

/** In-process behaviour of the state dir lock; test/gateway/state-dir-lock.e2e-spec.ts runs it across real processes. */

let tmp: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-lock-spec-'));
});
afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

const readHolder = async (stateDir: string) =>
  JSON.parse(await fs.readFile(path.join(stateDir, STATE_DIR_HOLDER_FILE), 'utf8')) as StateDirHolder;

async function refusal(stateDir: string, holderWaitMs?: number): Promise<StateDirInUseError> {
  const err: unknown = await lockStateDir(stateDir, { holderWaitMs }).then(
    async (lock) => {
      await lock.release();
      throw new Error('the state dir was locked twice');
    },
    (e: unknown) => e,
  );
  if (!(err instanceof StateDirInUseError)) throw err;
  return err;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid;
}

describe('lockStateDir', () => {
  it('creates the state dir, an empty lock file and a holder record naming this process, both mode 0600', async () => {
    const stateDir = path.join(tmp, 'new', 'state');
    const lock = await lockStateDir(stateDir);
    try {
      const holder = await readHolder(stateDir);
      expect(holder).toEqual({ pid: process.pid, hostname: os.hostname(), startedAt: expect.any(String) });
      expect(new Date(holder.startedAt).toISOString()).toBe(holder.startedAt);
      const lockStat = await fs.stat(path.join(stateDir, STATE_DIR_LOCK_FILE));
      expect(lockStat.size).toBe(0);
      if (process.platform !== 'win32') {
        expect(lockStat.mode & 0o777).toBe(0o600);
        expect((await fs.stat(path.join(stateDir, STATE_DIR_HOLDER_FILE))).mode & 0o777).toBe(0o600);
      }
      // Only the two files: no journal, no temp file left next to them.
      expect((await fs.readdir(stateDir)).sort()).toEqual([STATE_DIR_LOCK_FILE, STATE_DIR_HOLDER_FILE]);
    } finally {
      await lock.release();
    }
  });

  it('refuses a second lock on the same state dir, naming the holder, until the first is released', async () => {
    const lock = await lockStateDir(tmp);
    const err = await refusal(tmp);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe(ErrorCode.Conflict);
    expect(err.detail).toBe(`state dir ${tmp} is in use by pid ${process.pid}`);
    expect(err.holder?.pid).toBe(process.pid);
    // The refused attempt changed nothing: the holder keeps both its lock and its record.
    expect((await readHolder(tmp)).pid).toBe(process.pid);
    await refusal(tmp);

    await lock.release();
    await expect(fs.access(path.join(tmp, STATE_DIR_HOLDER_FILE))).rejects.toThrow();
    const again = await lockStateDir(tmp);
    await again.release();
    await lock.release(); // idempotent: does not touch the state dir again
  });

  it('is not held by a record a dead process left behind, nor by one whose pid a live process now has', async () => {
    for (const pid of [deadPid(), process.ppid]) {
      await fs.writeFile(
        path.join(tmp, STATE_DIR_HOLDER_FILE),
        JSON.stringify({ pid, hostname: os.hostname(), startedAt: '2020-01-01T00:00:00.000Z' }),
      );
      const lock = await lockStateDir(tmp);
      expect((await readHolder(tmp)).pid).toBe(process.pid);
      await lock.release();
    }
  });

  it('says "another process" when the holder has not named itself (yet)', async () => {
    const lock = await lockStateDir(tmp);
    try {
      await fs.writeFile(path.join(tmp, STATE_DIR_HOLDER_FILE), 'not json');
      expect((await refusal(tmp, 0)).detail).toBe(`state dir ${tmp} is in use by another process`);
      await fs.writeFile(
        path.join(tmp, STATE_DIR_HOLDER_FILE),
        JSON.stringify({ pid: deadPid(), hostname: os.hostname(), startedAt: '2020-01-01T00:00:00.000Z' }),
      );
      expect((await refusal(tmp, 0)).holder).toBeUndefined();
      // A holder on another host (a shared file system) cannot be checked here; it is named as it is.
      await fs.writeFile(
        path.join(tmp, STATE_DIR_HOLDER_FILE),
        JSON.stringify({ pid: 4242, hostname: 'elsewhere.example', startedAt: '2020-01-01T00:00:00.000Z' }),
      );
      expect((await refusal(tmp, 0)).detail).toBe(`state dir ${tmp} is in use by pid 4242 on host elsewhere.example`);
    } finally {
      await lock.release();
    }
  });

  it('reports a state dir it cannot create with the path and the cause', async () => {
    const file = path.join(tmp, 'a-file');
    await fs.writeFile(file, '');
    const err: unknown = await lockStateDir(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).not.toBeInstanceOf(StateDirInUseError);
    expect((err as AppError).detail).toMatch(new RegExp(`^cannot lock state dir ${file}: .*EEXIST`));
  });
});
