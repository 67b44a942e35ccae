import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MemorySettings } from '../config/config.types';
import { CollectionSources } from './collection-source';
import { FileSource } from './file-source';
import { agentCollections } from './memory-collections';
import { resolveMemoryPath, sliceLines } from './memory-path-guard';

const files = new CollectionSources(new FileSource());

const memory: MemorySettings = {
  backend: 'qmd',
  citations: 'auto',
  qmd: {
    includeDefaultMemory: true,
    sessionsEnabled: false,
    paths: [],
    debounceMs: 1500,
    maxResults: 6,
    maxSnippetChars: 700,
    minScore: 0.4,
  },
  embeddings: { provider: 'none', workers: 1, rerank: 10 },
};

describe('resolveMemoryPath (memory_get confinement)', () => {
  let root: string;
  let ws: string;
  let shared: string;
  let outside: string;
  const cols = () =>
    agentCollections(
      { id: 'fam', workspace: ws, sessionsDir: path.join(root, 'sessions'), extraCollections: [{ path: shared, name: 'shared-notes' }] },
      memory,
    );

  beforeAll(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'memguard-')));
    ws = path.join(root, 'ws');
    shared = path.join(root, 'shared');
    outside = path.join(root, 'outside');
    await fs.mkdir(path.join(ws, 'memory', 'sub'), { recursive: true });
    await fs.mkdir(shared, { recursive: true });
    await fs.mkdir(outside, { recursive: true });
    await fs.writeFile(path.join(ws, 'MEMORY.md'), 'line one\nline two\nline three\n');
    await fs.writeFile(path.join(ws, 'AGENTS.md'), 'prompt, not memory');
    await fs.writeFile(path.join(ws, 'memory', 'sub', 'day.md'), 'a day');
    await fs.writeFile(path.join(shared, 'n.md'), 'shared note');
    await fs.writeFile(path.join(outside, 'secret.md'), 'secret');
    await fs.symlink(path.join(outside, 'secret.md'), path.join(ws, 'memory', 'leak.md'));
    await fs.symlink(outside, path.join(ws, 'memory', 'linkdir'));
    await fs.symlink(path.join(ws, 'memory', 'sub', 'day.md'), path.join(ws, 'memory', 'alias.md'));
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  it.each([
    ['MEMORY.md', 'MEMORY.md'],
    ['memory/sub/day.md', 'memory/sub/day.md'],
    ['shared-notes/n.md', 'shared-notes/n.md'],
    ['memory/alias.md', 'memory/alias.md'],
  ])('accepts %s (shown as %s)', async (input, display) => {
    const r = await resolveMemoryPath(input, ws, cols(), files);
    expect(r).toMatchObject({ status: 'ok', display });
  });

  it('accepts an absolute path inside a collection', async () => {
    expect(await resolveMemoryPath(path.join(shared, 'n.md'), ws, cols(), files)).toMatchObject({
      status: 'ok',
      display: 'shared-notes/n.md',
    });
  });

  it.each([
    ['../outside/secret.md'],
    ['memory/../MEMORY.md'],
    ['AGENTS.md'],
    ['memory/leak.md'],
    ['memory/linkdir/secret.md'],
    ['/etc/passwd'],
    ['shared-notes/../outside/secret.md'],
  ])('refuses %s', async (input) => {
    const r = await resolveMemoryPath(input, ws, cols(), files);
    expect(r.status).toBe('forbidden');
  });

  it('refuses an absolute path outside, even to a real file', async () => {
    expect((await resolveMemoryPath(path.join(outside, 'secret.md'), ws, cols(), files)).status).toBe('forbidden');
  });

  it('says not_found for a missing file inside a collection', async () => {
    expect(await resolveMemoryPath('memory/nope.md', ws, cols(), files)).toEqual({
      status: 'not_found',
      error: "no file memory/nope.md in this agent's memory",
    });
  });

  it('slices line ranges', () => {
    const text = 'line one\nline two\nline three\n';
    expect(sliceLines(text, 2, 1)).toEqual({
      text: 'line two',
      from: 2,
      to: 2,
      totalLines: 3,
      truncated: false,
    });
    expect(sliceLines(text)).toMatchObject({ text: 'line one\nline two\nline three', from: 1, to: 3 });
    expect(sliceLines(text, 9)).toMatchObject({ text: '', from: 9, to: 8 });
  });
});
