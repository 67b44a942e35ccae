import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write';

describe('writeFileAtomic', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await fs.mkdtemp(join(tmpdir(), 'clawgate-atomic-'));
  });

  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('creates a new file with the given content and leaves no temp file', async () => {
    const file = join(dir, 'clawgate.json5');
    await writeFileAtomic(file, '{ a: 1 } // ünïcode\n');
    expect(await fs.readFile(file, 'utf8')).toBe('{ a: 1 } // ünïcode\n');
    expect(await fs.readdir(dir)).toEqual(['clawgate.json5']);
  });

  it('replaces an existing file and keeps its mode', async () => {
    const file = join(dir, 'secret.json5');
    await fs.writeFile(file, 'old');
    await fs.chmod(file, 0o600);
    await writeFileAtomic(file, 'new');
    expect(await fs.readFile(file, 'utf8')).toBe('new');
    if (process.platform !== 'win32') expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await fs.readdir(dir)).toEqual(['secret.json5']);
  });

  it('creates a new file with newFileMode whatever the umask, and leaves an existing file its own mode', async () => {
    if (process.platform === 'win32') return;
    const previous = process.umask(0o022);
    try {
      const file = join(dir, 'last-good.json');
      await writeFileAtomic(file, 'one', { newFileMode: 0o600 });
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      await fs.chmod(file, 0o640);
      await writeFileAtomic(file, 'two', { newFileMode: 0o600 });
      expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
      await writeFileAtomic(join(dir, 'plain.json'), 'x');
      expect((await fs.stat(join(dir, 'plain.json'))).mode & 0o777).toBe(0o644);
    } finally {
      process.umask(previous);
    }
  });

  it('writes through a symlink to its target', async () => {
    if (process.platform === 'win32') return;
    const real = join(dir, 'real.json5');
    const link = join(dir, 'link.json5');
    await fs.writeFile(real, 'old');
    await fs.symlink(real, link);
    await writeFileAtomic(link, 'new');
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
    expect(await fs.readFile(real, 'utf8')).toBe('new');
    expect((await fs.readdir(dir)).sort()).toEqual(['link.json5', 'real.json5']);
  });

  it('rejects when the directory is missing and creates nothing', async () => {
    await expect(writeFileAtomic(join(dir, 'missing', 'x.json5'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('removes its temp file when the final rename fails', async () => {
    // A directory at the target path makes rename fail after the temp file was written.
    await fs.mkdir(join(dir, 'taken'));
    await expect(writeFileAtomic(join(dir, 'taken'), 'x')).rejects.toThrow();
    expect(await fs.readdir(dir)).toEqual(['taken']);
  });

  it('survives concurrent writers: one complete version wins, no leftovers', async () => {
    const file = join(dir, 'c.json5');
    const versions = Array.from({ length: 8 }, (_, i) => `{ v: ${i}, pad: "${'x'.repeat(10_000)}" }`);
    await Promise.all(versions.map((v) => writeFileAtomic(file, v)));
    expect(versions).toContain(await fs.readFile(file, 'utf8'));
    expect(await fs.readdir(dir)).toEqual(['c.json5']);
  });
});
