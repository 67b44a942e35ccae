import fsModule from 'node:fs';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PromptFileCache } from './prompt-file-cache';

/** Reads until `expected` comes back or the deadline passes: a watch event arrives soon, not at once. */
async function readsEventually(cache: PromptFileCache, file: string, expected: string, deadlineMs = 5000): Promise<void> {
  const until = Date.now() + deadlineMs;
  let last = await cache.read(file);
  while (last !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    last = await cache.read(file);
  }
  expect(last).toBe(expected);
}

describe('PromptFileCache', () => {
  let dir: string;
  let cache: PromptFileCache;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-prompt-'));
    cache = new PromptFileCache();
  });
  afterEach(async () => {
    cache.close();
    jest.restoreAllMocks();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('serves the remembered text with no file system call while nothing changed', async () => {
    const file = path.join(dir, 'SOUL.md');
    await fs.writeFile(file, 'be kind');
    expect(await cache.read(file)).toBe('be kind');
    const calls = ['stat', 'lstat', 'readFile', 'open', 'access'].map((name) => jest.spyOn(fs, name as 'stat'));
    const syncCalls = ['statSync', 'lstatSync', 'watch'].map((name) => jest.spyOn(fsModule, name as 'statSync'));
    for (let i = 0; i < 5; i++) expect(await cache.read(file)).toBe('be kind');
    for (const spy of [...calls, ...syncCalls]) expect(spy).not.toHaveBeenCalled();
  });

  it('sees an edit in place on a following read', async () => {
    const file = path.join(dir, 'USER.md');
    await fs.writeFile(file, 'aaaa');
    expect(await cache.read(file)).toBe('aaaa');
    // Same size, and quite possibly the same mtime tick: only the watch can tell.
    await fs.writeFile(file, 'bbbb');
    await readsEventually(cache, file, 'bbbb');
  });

  it("sees an editor's save (temp file renamed over the original)", async () => {
    const file = path.join(dir, 'AGENTS.md');
    await fs.writeFile(file, 'old rules');
    expect(await cache.read(file)).toBe('old rules');
    const temp = path.join(dir, '.AGENTS.md.swp');
    await fs.writeFile(temp, 'new rules');
    await fs.rename(temp, file);
    await readsEventually(cache, file, 'new rules');
    // And the next save too: the watch is on the directory, not on the replaced inode.
    await fs.writeFile(temp, 'newer rules');
    await fs.rename(temp, file);
    await readsEventually(cache, file, 'newer rules');
  });

  it('reads a missing file as empty and picks it up once it is created', async () => {
    const file = path.join(dir, 'TOOLS.md');
    expect(await cache.read(file)).toBe('');
    expect(await cache.read(file)).toBe('');
    await fs.writeFile(file, 'use the tools');
    await readsEventually(cache, file, 'use the tools');
    await fs.rm(file);
    await readsEventually(cache, file, '');
  });

  it('treats a directory as an empty file', async () => {
    await fs.mkdir(path.join(dir, 'AGENTS.md'));
    expect(await cache.read(path.join(dir, 'AGENTS.md'))).toBe('');
  });

  it('watches each directory once, not each file', async () => {
    const watch = jest.spyOn(fsModule, 'watch');
    const names = ['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md'];
    for (const name of names) await fs.writeFile(path.join(dir, name), name);
    expect(await Promise.all(names.map((name) => cache.read(path.join(dir, name))))).toEqual(names);
    expect(watch).toHaveBeenCalledTimes(1);
  });

  it('checks a symlinked file by stat, since its target can change without an event in the directory', async () => {
    const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-prompt-target-'));
    try {
      const target = path.join(elsewhere, 'shared.md');
      await fs.writeFile(target, 'shared v1');
      const link = path.join(dir, 'SOUL.md');
      await fs.symlink(target, link);
      expect(await cache.read(link)).toBe('shared v1');
      await fs.writeFile(target, 'shared v2, longer');
      expect(await cache.read(link)).toBe('shared v2, longer');
    } finally {
      await fs.rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('falls back to a stat per read where no watch is possible, and after close', async () => {
    const file = path.join(dir, 'USER.md');
    await fs.writeFile(file, 'one');
    cache.close();
    expect(await cache.read(file)).toBe('one');
    await fs.writeFile(file, 'one two');
    expect(await cache.read(file)).toBe('one two');
  });

  it('keeps serving after the directory is replaced, from the new directory', async () => {
    const ws = path.join(dir, 'ws');
    await fs.mkdir(ws);
    const file = path.join(ws, 'SOUL.md');
    await fs.writeFile(file, 'first');
    expect(await cache.read(file)).toBe('first');
    const next = path.join(dir, 'ws-next');
    await fs.mkdir(next);
    await fs.writeFile(path.join(next, 'SOUL.md'), 'second');
    await fs.rm(ws, { recursive: true });
    await fs.rename(next, ws);
    await readsEventually(cache, file, 'second');
    await fs.writeFile(file, 'third');
    await readsEventually(cache, file, 'third');
  });
});
