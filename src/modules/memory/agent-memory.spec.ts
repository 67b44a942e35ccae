import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HashingEmbedder } from '../../../test/fixtures/memory/hashing-embedder';
import type { MemorySettings } from '../config/config.types';
import { AgentMemory } from './agent-memory';
import { agentCollections } from './memory-collections';
import { SqliteMemoryIndex } from './sqlite-memory-index';
import { waitUntil } from '../../../test/support/wait-until';

const settings = (sessionsEnabled: boolean): MemorySettings => ({
  backend: 'qmd',
  citations: 'auto',
  qmd: { includeDefaultMemory: true, sessionsEnabled, paths: [], debounceMs: 100, maxResults: 6, maxSnippetChars: 700, minScore: 0.4 },
  embeddings: { provider: 'none', workers: 1, rerank: 10 },
});
const line = (n: number, role: string, text: string) => `${JSON.stringify({ id: `l${n}`, ts: '2025-01-01T00:00:00Z', role, text })}\n`;
const opts = { maxResults: 6, maxSnippetChars: 700 };

describe('AgentMemory (index + sync + watcher, hashing embedder)', () => {
  let root: string;
  let agent: { id: string; workspace: string; sessionsDir: string; extraCollections: [] };
  let embedder: HashingEmbedder;
  let memory: AgentMemory;
  const dbFile = () => path.join(root, 'agents', 'a', 'memory', 'index.sqlite');
  const make = (sessions = true) => {
    const m = new AgentMemory({
      agentId: 'a',
      openIndex: () => new SqliteMemoryIndex(dbFile()),
      embedder: () => embedder,
      debounceMs: () => 100,
      logger: { warn: () => undefined, debug: () => undefined },
    });
    void m.configure(agent.workspace, agentCollections(agent, settings(sessions)));
    return m;
  };

  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'agentmem-'));
    agent = { id: 'a', workspace: path.join(root, 'ws'), sessionsDir: path.join(root, 'agents', 'a', 'sessions'), extraCollections: [] };
    await fs.mkdir(path.join(agent.workspace, 'memory'), { recursive: true });
    await fs.mkdir(agent.sessionsDir, { recursive: true });
    await fs.writeFile(path.join(agent.workspace, 'MEMORY.md'), '# Facts\n\nThe spare key hides under the blue flowerpot.\n');
    await fs.writeFile(path.join(agent.workspace, 'memory', 'trips.md'), 'We camped near Lake Tahoe in July.\n');
    embedder = new HashingEmbedder();
    memory = make();
  });
  afterEach(async () => {
    await memory.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('opens nothing until first use, then indexes and finds by keyword and by vector', async () => {
    expect(existsSync(dbFile())).toBe(false);
    const hits = await memory.search('flowerpot key', opts);
    expect(existsSync(dbFile())).toBe(true);
    expect(hits[0]).toMatchObject({ collection: 'memory-root-a', path: 'MEMORY.md', startLine: 1, endLine: 3 });
    await memory.idle();
    const vectorOnly = await memory.search('tahoe camped', { ...opts, mode: 'vector' });
    expect(vectorOnly[0]).toMatchObject({ path: 'memory/trips.md', collection: 'memory-dir-a' });
  });

  it('skips unchanged files on a later sync and re-reads everything on a forced one', async () => {
    await memory.idle();
    expect(await memory.reindex(false)).toMatchObject({ indexed: 0, unchanged: 2, removed: 0 });
    await fs.writeFile(path.join(agent.workspace, 'memory', 'trips.md'), 'We camped near Lake Tahoe in August.\n');
    expect(await memory.reindex(false)).toMatchObject({ indexed: 1, unchanged: 1 });
    expect(await memory.reindex(true)).toMatchObject({ indexed: 2, unchanged: 0 });
    const embeddedBefore = embedder.embedded;
    await memory.reindex(true);
    expect(embedder.embedded).toBe(embeddedBefore); // same texts: vectors are reused, not recomputed
  });

  it('follows edits, deletions and growing transcripts through the watcher', async () => {
    await memory.idle();
    await fs.writeFile(path.join(agent.workspace, 'memory', 'new.md'), 'The wifi password is marmalade42.\n');
    await waitUntil(async () => (await memory.search('marmalade42', opts)).some((h) => h.path === 'memory/new.md'));

    await fs.rm(path.join(agent.workspace, 'memory', 'new.md'));
    await waitUntil(async () => !(await memory.search('marmalade42', opts)).some((h) => h.path === 'memory/new.md'));

    // Waits poll by keyword: a hybrid search embeds its query, which would blur the count of chunk embeddings.
    const keyword = { ...opts, mode: 'keyword' as const };
    const transcriptHits = async (query: string) => (await memory.search(query, keyword)).filter((h) => h.path === 'sessions-a/s1.jsonl');
    const transcript = path.join(agent.sessionsDir, 's1.jsonl');
    await fs.writeFile(transcript, line(1, 'user', 'my bike lock code is 3141') + line(2, 'tool', 'lockcode tool output'));
    await waitUntil(async () => (await transcriptHits('bike lock code')).length > 0);
    await memory.idle();
    const before = embedder.embedded;
    await fs.appendFile(transcript, line(3, 'assistant', 'noted the combination for the shed padlock'));
    await waitUntil(async () => (await transcriptHits('padlock shed')).some((h) => h.endLine === 3));
    expect(await memory.search('lockcode', keyword)).toEqual([]); // tool lines are not memory
    await memory.idle();
    expect(embedder.embedded - before).toBe(1); // the grown chunk only
  });

  it('picks up a granted directory that only comes into existence later', async () => {
    const later = path.join(root, 'agents', 'b', 'sessions');
    const granted = { ...agent, extraCollections: [{ path: later, name: 'b-sessions' }] };
    await memory.configure(agent.workspace, agentCollections(granted, settings(false)));
    await memory.idle();
    await fs.mkdir(later, { recursive: true });
    await fs.writeFile(path.join(later, 'x.jsonl'), line(1, 'user', 'the ferry leaves at dawn from pier seven'));
    await waitUntil(async () => (await memory.search('ferry pier', { ...opts, mode: 'keyword' }))[0]?.path === 'b-sessions/x.jsonl');
  });

  it('stops serving a collection as soon as it is configured away', async () => {
    await fs.writeFile(path.join(agent.sessionsDir, 's2.jsonl'), line(1, 'user', 'the vet appointment is on friday'));
    const keyword = { ...opts, mode: 'keyword' as const };
    expect(await memory.search('vet appointment', keyword)).toMatchObject([{ collection: 'sessions-a', path: 'sessions-a/s2.jsonl' }]);
    const pending = memory.configure(agent.workspace, agentCollections(agent, settings(false)));
    expect(await memory.search('vet appointment', keyword)).toEqual([]);
    await pending;
    expect(memory.stats().map((s) => s.collectionKey)).not.toContain(agentCollections(agent, settings(true))[2].key);
  });

  it('closes while the first open is still starting its watcher, and leaves nothing watching', async () => {
    const warns: string[] = [];
    const early = new AgentMemory({
      agentId: 'early',
      openIndex: () => new SqliteMemoryIndex(path.join(root, 'early.sqlite')),
      embedder: () => undefined,
      debounceMs: () => 50,
      logger: { warn: (m: string) => void warns.push(m), debug: () => undefined },
    });
    await early.configure(agent.workspace, agentCollections(agent, settings(false)));
    const opening = early.ready();
    // The index is opened first, then the watcher starts: close lands while it waits for chokidar's 'ready'.
    while (!existsSync(path.join(root, 'early.sqlite'))) await new Promise((r) => setImmediate(r));
    await early.close(); // used to wait forever: a watcher closed before 'ready' never became ready
    await opening;
    await fs.writeFile(path.join(agent.workspace, 'MEMORY.md'), '# Facts\n\nChanged after close.\n');
    await new Promise((r) => setTimeout(r, 300));
    expect(warns).toEqual([]); // no leftover watcher reported the change into a closed memory
  }, 10_000);
});
