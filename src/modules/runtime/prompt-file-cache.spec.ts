import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PromptFileCache } from './prompt-file-cache';

describe('PromptFileCache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-prompt-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('serves the remembered text until the file changes, then the new text', async () => {
    const file = path.join(dir, 'SOUL.md');
    const cache = new PromptFileCache();
    await fs.writeFile(file, 'be kind');
    expect(await cache.read(file)).toBe('be kind');
    const spy = jest.spyOn(fs, 'readFile');
    expect(await cache.read(file)).toBe('be kind');
    expect(spy).not.toHaveBeenCalled();
    // A different size is a change even when the mtime lands in the same tick.
    await fs.writeFile(file, 'be kind and brief');
    expect(await cache.read(file)).toBe('be kind and brief');
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it('reads a same-size edit once its mtime differs', async () => {
    const file = path.join(dir, 'USER.md');
    const cache = new PromptFileCache();
    await fs.writeFile(file, 'aaaa');
    expect(await cache.read(file)).toBe('aaaa');
    await fs.writeFile(file, 'bbbb');
    const later = new Date(Date.now() + 5000);
    await fs.utimes(file, later, later);
    expect(await cache.read(file)).toBe('bbbb');
  });

  it('treats a missing file or a directory as empty and forgets a deleted file', async () => {
    const cache = new PromptFileCache();
    const file = path.join(dir, 'TOOLS.md');
    await fs.writeFile(file, 'x');
    expect(await cache.read(file)).toBe('x');
    await fs.rm(file);
    expect(await cache.read(file)).toBe('');
    await fs.mkdir(path.join(dir, 'AGENTS.md'));
    expect(await cache.read(path.join(dir, 'AGENTS.md'))).toBe('');
  });
});
