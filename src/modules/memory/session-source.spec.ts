import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { tempSessionEnv, TempSessionEnv } from '../../../test/support/temp-session-env';
import type { MemorySettings } from '../config/config.types';
import type { SqliteSessionStore } from '../sessions/sqlite-session.store';
import { AgentMemory } from './agent-memory';
import { ChangeBatch, CollectionSources } from './collection-source';
import { FileSource } from './file-source';
import { agentCollections, MemoryCollection, sessionDirAgent } from './memory-collections';
import { SessionDocument, SessionSource } from './session-source';
import { SqliteMemoryIndex } from './sqlite-memory-index';
import { waitUntil } from '../../../test/support/wait-until';

const qmd = (sessionsEnabled: boolean): MemorySettings => ({
  backend: 'qmd',
  citations: 'auto',
  qmd: { includeDefaultMemory: false, sessionsEnabled, paths: [], debounceMs: 50, maxResults: 6, maxSnippetChars: 700, minScore: 0.4 },
  embeddings: { provider: 'none', workers: 1, rerank: 10 },
});
const keyword = { maxResults: 6, maxSnippetChars: 700, mode: 'keyword' as const };
const user = (text: string) => ({ role: 'user' as const, text });

describe('session dirs as collections', () => {
  let env: TempSessionEnv;
  let store: SqliteSessionStore;
  let source: SessionSource;
  /** `main` with its own transcripts and a grant on family's session dir. */
  let cols: MemoryCollection[];
  const agent = () => ({
    id: 'main',
    workspace: path.join(env.stateDir, 'workspace-main'),
    sessionsDir: env.sessionsDir('main'),
    extraCollections: [{ path: env.sessionsDir('family'), name: 'family-sessions' }],
  });
  const read = async (doc: SessionDocument, maxBytes?: number) => source.read(cols[1], doc, maxBytes);

  beforeEach(async () => {
    env = await tempSessionEnv(['main', 'family']);
    store = env.newStore();
    store.onModuleInit();
    source = new SessionSource(store);
    cols = agentCollections(agent(), qmd(true), [], env.stateDir);
  });
  afterEach(() => env.cleanup());

  describe('sessionDirAgent', () => {
    it.each([
      ['agents/family/sessions', 'family'],
      ['agents/ghost/sessions/', 'ghost'], // not configured: its sessions are still in the store
      ['agents/family/sessions/../sessions', 'family'],
    ])('recognises %s of this state dir', (rel, id) => {
      expect(sessionDirAgent(env.stateDir, path.join(env.stateDir, rel))).toBe(id);
    });

    it.each([
      ['another state dir', (s: string) => path.join(path.dirname(s), 'other-state', 'agents', 'family', 'sessions')],
      ['a copied layout', (s: string) => path.join(s, 'copy', 'agents', 'family', 'sessions')],
      ['a directory inside a session dir', (s: string) => path.join(s, 'agents', 'family', 'sessions', 'x')],
      ['the agent dir', (s: string) => path.join(s, 'agents', 'family')],
      ['an id that is not canonical', (s: string) => path.join(s, 'agents', 'Family', 'sessions')],
      ['an id that is not one', (s: string) => path.join(s, 'agents', '..', 'sessions')],
      ['the state dir', (s: string) => s],
    ])('leaves %s to the file system', (_what, dir) => {
      expect(sessionDirAgent(env.stateDir, dir(env.stateDir))).toBeUndefined();
    });

    it('marks only session-dir collections, and gives them their own key', () => {
      expect(cols.map((c) => [c.name, c.transcriptsOf])).toEqual([
        ['sessions-main', 'main'],
        ['family-sessions', 'family'],
      ]);
      const asFiles = agentCollections(agent(), qmd(true), []);
      expect(asFiles.every((c) => c.transcriptsOf === undefined)).toBe(true);
      expect(asFiles.map((c) => c.key)).not.toEqual(cols.map((c) => c.key));
      expect(new CollectionSources(new FileSource(), source).for(cols[1])).toBe(source);
      expect(() => new CollectionSources(new FileSource()).for(cols[1])).toThrow(/no session store/);
    });
  });

  describe('SessionSource', () => {
    it('lists one document per session, stamped by version, with the JSONL export as its text', async () => {
      const first = await store.append('agent:family:main', user('the canoe is in the shed'));
      await store.getOrCreate('agent:family:direct:bob'); // empty: a document with no lines
      await store.append('agent:main:main', user('not family material'));
      const docs = await source.list(cols[1]);
      const bob = (await store.get('agent:family:direct:bob'))!;
      const fam = (await store.get('agent:family:main'))!;
      expect([...docs.keys()].sort()).toEqual(
        [
          path.join(env.sessionsDir('family'), `${fam.sessionId}.jsonl`),
          path.join(env.sessionsDir('family'), `${bob.sessionId}.jsonl`),
        ].sort(),
      );
      const doc = docs.get(path.join(env.sessionsDir('family'), `${fam.sessionId}.jsonl`))!;
      expect(doc).toMatchObject({ sessionKey: 'agent:family:main', size: expect.any(Number) });
      expect(doc.size).toBeGreaterThan(0);
      expect(await read(doc)).toEqual({ status: 'ok', text: `${JSON.stringify(first)}\n` });

      await store.append('agent:family:main', user('and the paddles too'));
      const grown = (await source.list(cols[1])).get(doc.path)!;
      expect(grown.size).not.toBe(doc.size);
      expect(grown.mtimeMs).toBeGreaterThanOrEqual(doc.mtimeMs);
      expect((await read(grown)).status).toBe('ok');
    });

    it('looks up a session by its document path only', async () => {
      await store.append('agent:family:main', user('hello'));
      const { sessionId } = (await store.get('agent:family:main'))!;
      const dir = env.sessionsDir('family');
      expect(await source.lookup(cols[1], path.join(dir, `${sessionId}.jsonl`))).toMatchObject({
        status: 'ok',
        document: { sessionKey: 'agent:family:main' },
      });
      for (const file of [
        path.join(dir, 'no-such-session.jsonl'),
        path.join(dir, `${sessionId}.md`),
        path.join(dir, `${sessionId}`),
        path.join(dir, 'sub', `${sessionId}.jsonl`),
        path.join(dir, `.${sessionId}.jsonl`),
        path.join(dir, '.jsonl'),
        path.join(dir, 'sessions.json'),
        path.join(env.sessionsDir('main'), `${sessionId}.jsonl`), // family's session, main's dir
        path.join(env.stateDir, `${sessionId}.jsonl`),
      ]) {
        expect({ file, found: (await source.lookup(cols[1], file)).status }).toEqual({ file, found: 'missing' });
      }
    });

    it('applies the collection pattern to the document names', async () => {
      await store.append('agent:family:main', user('hello'));
      const onlyNotes = agentCollections(
        { ...agent(), extraCollections: [{ path: env.sessionsDir('family'), name: 'fam', pattern: '**/*.md' }] },
        qmd(false),
        [],
        env.stateDir,
      );
      expect(onlyNotes[0].transcriptsOf).toBe('family');
      expect((await source.list(onlyNotes[0])).size).toBe(0);
    });

    it('reports a transcript over the size limit without exporting all of it', async () => {
      await store.append('agent:family:main', user('x'.repeat(2000)));
      const [doc] = (await source.list(cols[1])).values();
      expect(await read(doc, 1000)).toEqual({ status: 'too-large' });
      expect((await read(doc, 10_000)).status).toBe('ok');
    });

    it('does not read files left in the session dir by the file layout', async () => {
      await fs.mkdir(env.sessionsDir('family'), { recursive: true });
      const leftover = path.join(env.sessionsDir('family'), 'leftover.jsonl');
      await fs.writeFile(leftover, `${JSON.stringify({ id: '1', ts: 't', role: 'user', text: 'stale' })}\n`);
      expect((await source.list(cols[1])).size).toBe(0);
      expect((await source.lookup(cols[1], leftover)).status).toBe('missing');
    });
  });

  describe('TranscriptWatcher', () => {
    it('debounces each session on its own and reports its document in every collection on that dir', async () => {
      const batches: ChangeBatch[] = [];
      const twice = [...cols, { ...cols[1], name: 'again', key: 'again', root: env.sessionsDir('family') }];
      const watcher = source.watcher(twice, { debounceMs: () => 80, onBatch: (b) => void batches.push(b) });
      await watcher.start();
      for (let i = 0; i < 4; i++) await store.append('agent:family:main', user(`line ${i}`));
      await store.append('agent:family:direct:bob', user('hi'));
      await store.append('agent:main:main', user('mine'));
      await waitUntil(async () => batches.length >= 3);
      await new Promise((r) => setTimeout(r, 200));
      const fam = (await store.get('agent:family:main'))!.sessionId;
      const bob = (await store.get('agent:family:direct:bob'))!.sessionId;
      const main = (await store.get('agent:main:main'))!.sessionId;
      const reported = batches.map((b) => [...b.files].sort());
      expect(reported).toHaveLength(3); // four appends to one session: one report
      expect(reported).toEqual(
        expect.arrayContaining([
          [path.join(env.sessionsDir('family'), `${fam}.jsonl`)], // same path in both family collections
          [path.join(env.sessionsDir('family'), `${bob}.jsonl`)],
          [path.join(env.sessionsDir('main'), `${main}.jsonl`)],
        ]),
      );
      expect(batches.every((b) => b.rescan.size === 0)).toBe(true);

      await watcher.close();
      await store.append('agent:family:main', user('after close'));
      await new Promise((r) => setTimeout(r, 200));
      expect(batches).toHaveLength(3);
    });

    it('drops a pending report when closed, and subscribes not at all without session collections', async () => {
      const batches: ChangeBatch[] = [];
      const subscribe = jest.spyOn(store, 'onAppend');
      const idle = source.watcher([], { debounceMs: () => 10, onBatch: (b) => void batches.push(b) });
      await idle.start();
      expect(subscribe).not.toHaveBeenCalled();
      const watcher = source.watcher(cols, { debounceMs: () => 100, onBatch: (b) => void batches.push(b) });
      await watcher.start();
      await store.append('agent:family:main', user('pending'));
      await watcher.close();
      await new Promise((r) => setTimeout(r, 250));
      expect(batches).toEqual([]);
    });
  });

  describe('AgentMemory over the session store', () => {
    let memory: AgentMemory;
    let subscriptions: number;
    const make = (collections: MemoryCollection[]) => {
      const m = new AgentMemory({
        agentId: 'main',
        openIndex: () => new SqliteMemoryIndex(path.join(env.stateDir, 'agents', 'main', 'memory', 'index.sqlite')),
        embedder: () => undefined,
        debounceMs: () => 50,
        logger: { warn: (msg: string) => void warnings.push(msg), debug: () => undefined },
        sources: new CollectionSources(new FileSource(), source),
      });
      void m.configure(agent().workspace, collections);
      return m;
    };
    let warnings: string[];
    beforeEach(() => {
      warnings = [];
      subscriptions = 0;
      const subscribe = store.onAppend.bind(store);
      jest.spyOn(store, 'onAppend').mockImplementation((listener) => {
        subscriptions++;
        const off = subscribe(listener);
        return () => {
          subscriptions--;
          return off();
        };
      });
      memory = make(cols);
    });
    afterEach(() => memory.close());

    it('indexes sessions, skips unchanged ones without exporting them, and follows appends', async () => {
      await store.append('agent:family:main', user('the spare canoe paddles are in the red shed'));
      await store.append('agent:family:main', { role: 'assistant', text: 'noted' });
      const { sessionId } = (await store.get('agent:family:main'))!;
      expect(await memory.search('canoe paddles', keyword)).toMatchObject([
        { collection: 'family-sessions', path: `family-sessions/${sessionId}.jsonl`, startLine: 1, endLine: 2 },
      ]);

      const exports = jest.spyOn(store, 'exportTranscript');
      expect(await memory.reindex(false)).toMatchObject({ indexed: 0, unchanged: 1, removed: 0 });
      expect(exports).not.toHaveBeenCalled();
      expect(await memory.reindex(true)).toMatchObject({ indexed: 1, unchanged: 0 });

      await store.append('agent:family:main', user('the life jackets hang in the garage'));
      await waitUntil(async () => (await memory.search('life jackets garage', keyword)).some((h) => h.endLine === 3));
      // A new session of that agent is a new document.
      await store.append('agent:family:direct:bob', user('bob parks the trailer by the gate'));
      await waitUntil(async () => (await memory.search('trailer gate', keyword)).length === 1);
      expect(memory.stats().find((s) => s.collectionKey === cols[1].key)).toMatchObject({ files: 2 });
      expect(warnings).toEqual([]);
    });

    it('subscribes once, resubscribes when the collections change, and unsubscribes on close', async () => {
      await memory.ready();
      expect(subscriptions).toBe(1);
      await memory.configure(agent().workspace, cols.slice(0, 1));
      expect(subscriptions).toBe(1);
      await store.append('agent:family:main', user('granted no more: the boathouse code is 9911'));
      await store.append('agent:main:main', user('my own note about the boathouse'));
      await waitUntil(async () => (await memory.search('boathouse', keyword)).length > 0);
      expect((await memory.search('boathouse', keyword)).map((h) => h.collection)).toEqual(['sessions-main']);
      await memory.configure(agent().workspace, []);
      expect(subscriptions).toBe(0);
      await memory.configure(agent().workspace, cols);
      expect(subscriptions).toBe(1);
      await memory.close();
      expect(subscriptions).toBe(0);
    });
  });
});
