import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write';
import { removeStaleTempFiles, tempFileWriterPid } from './stale-temp-files';

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid;
}

describe('removeStaleTempFiles', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await fs.mkdtemp(join(tmpdir(), 'clawgate-stale-'));
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('recognizes the temp names writeFileAtomic uses, and only those of the given target', async () => {
    // A rename that fails and a cleanup that does not happen: what a kill between the two leaves.
    jest.spyOn(fs, 'rename').mockRejectedValueOnce(new Error('killed'));
    jest.spyOn(fs, 'rm').mockResolvedValueOnce(undefined);
    await expect(writeFileAtomic(join(dir, 'openclaw.json'), '{}')).rejects.toThrow('killed');
    jest.restoreAllMocks();
    const [left] = await fs.readdir(dir);
    expect(tempFileWriterPid(left, 'openclaw.json')).toBe(process.pid);
    expect(tempFileWriterPid(left, 'openclaw.json5')).toBeUndefined();
    expect(tempFileWriterPid('.openclaw.json.12.zz.tmp', 'openclaw.json')).toBeUndefined();
    expect(tempFileWriterPid('openclaw.json.12.ab.tmp', 'openclaw.json')).toBeUndefined();
    expect(tempFileWriterPid('.openclaw.json.12.ab.tmp.bak', 'openclaw.json')).toBeUndefined();
  });

  it("removes temp files of dead writers and of this pid's earlier holder, keeps a live writer's and everything else", async () => {
    const target = join(dir, 'openclaw.json');
    await fs.writeFile(target, '{ kept: true }');
    const dead = `.openclaw.json.${deadPid()}.a1b2c3d4e5f6.tmp`;
    const ownPid = `.openclaw.json.${process.pid}.0123456789ab.tmp`;
    // The parent of this test process is alive and is not this process.
    const live = `.openclaw.json.${process.ppid}.ffffffffffff.tmp`;
    const others = ['.other.json.1.ab.tmp', 'openclaw.json.bak', 'notes.tmp'];
    for (const name of [dead, ownPid, live, ...others]) await fs.writeFile(join(dir, name), 'half');

    const removed = await removeStaleTempFiles(target);

    expect(removed.sort()).toEqual([join(dir, dead), join(dir, ownPid)].sort());
    expect((await fs.readdir(dir)).sort()).toEqual([live, 'openclaw.json', ...others].sort());
    expect(await fs.readFile(target, 'utf8')).toBe('{ kept: true }');
  });

  it('looks next to the real file when the target is a symlink, and does nothing for a missing directory', async () => {
    await fs.mkdir(join(dir, 'real'));
    await fs.writeFile(join(dir, 'real', 'openclaw.json'), '{}');
    await fs.symlink(join(dir, 'real', 'openclaw.json'), join(dir, 'openclaw.json'));
    const stale = join(dir, 'real', `.openclaw.json.${deadPid()}.abcdef012345.tmp`);
    await fs.writeFile(stale, 'half');

    expect(await removeStaleTempFiles(join(dir, 'openclaw.json'))).toEqual([stale]);
    expect(await removeStaleTempFiles(join(dir, 'missing', 'openclaw.json'))).toEqual([]);
  });
});
