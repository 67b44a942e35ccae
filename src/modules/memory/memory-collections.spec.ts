import type { MemorySettings } from '../config/config.types';
import { agentCollections, displayPath, ignoredByBuiltin, relativeInCollection } from './memory-collections';

const memory = (qmd: Partial<MemorySettings['qmd']> = {}): MemorySettings => ({
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
    ...qmd,
  },
  embeddings: { provider: 'none', workers: 1, rerank: 10 },
});

const main = {
  id: 'main',
  workspace: '/s/workspace-main',
  sessionsDir: '/s/agents/main/sessions',
  extraCollections: [{ path: '/s/agents/family/sessions', name: 'family-sessions' }],
};
const family = { id: 'family', workspace: '/s/workspace-family', sessionsDir: '/s/agents/family/sessions', extraCollections: [] };

describe('agentCollections', () => {
  it('builds the default, session, path and extra collections of one agent, in that order', () => {
    const cols = agentCollections(
      main,
      memory({
        sessionsEnabled: true,
        paths: [
          { path: 'notes', name: 'notes' },
          { path: '/srv/kb', name: 'kb', pattern: '*.txt' },
        ],
      }),
      [main, family],
    );
    expect(cols.map((c) => [c.name, c.kind, c.root, c.pattern])).toEqual([
      ['memory-root-main', 'memory-root', '/s/workspace-main', 'MEMORY.md'],
      ['memory-dir-main', 'memory-dir', '/s/workspace-main/memory', '**/*.md'],
      ['sessions-main', 'sessions', '/s/agents/main/sessions', '*.jsonl'],
      ['notes', 'path', '/s/workspace-main/notes', '**/*.md'],
      ['kb', 'path', '/srv/kb', '*.txt'],
      ['family-sessions', 'extra', '/s/agents/family/sessions', '{**/*.md,*.jsonl}'],
    ]);
    expect(new Set(cols.map((c) => c.key)).size).toBe(cols.length);
  });

  it('is directional: granting main family sessions gives family nothing of main', () => {
    const cols = agentCollections(family, memory(), [main, family]);
    expect(cols.map((c) => c.name)).toEqual(['memory-root-family', 'memory-dir-family']);
    expect(cols.every((c) => !c.root.includes('main'))).toBe(true);
  });

  it('with backend builtin: only MEMORY.md and memory/, and it says which settings it ignores', () => {
    const builtin = {
      ...memory({ sessionsEnabled: true, includeDefaultMemory: false, paths: [{ path: 'notes', name: 'notes' }] }),
      backend: 'builtin' as const,
    };
    expect(agentCollections(main, builtin, [main, family]).map((c) => c.name)).toEqual(['memory-root-main', 'memory-dir-main']);
    expect(ignoredByBuiltin(main, builtin)).toEqual([
      'memorySearch.qmd.extraCollections',
      'memory.qmd.paths',
      'memory.qmd.sessions.enabled',
    ]);
    expect(ignoredByBuiltin(main, memory())).toEqual([]);
  });

  it('drops the defaults without includeDefaultMemory and keeps the first of two equal names', () => {
    const cols = agentCollections(
      {
        ...main,
        extraCollections: [
          { path: '/a', name: 'x' },
          { path: '/b', name: 'x' },
        ],
      },
      memory({ includeDefaultMemory: false }),
    );
    expect(cols.map((c) => [c.name, c.root])).toEqual([['x', '/a']]);
  });

  it('changes the key when the path or pattern changes', () => {
    const a = agentCollections({ ...main, extraCollections: [{ path: '/a', name: 'x' }] }, memory({ includeDefaultMemory: false }));
    const b = agentCollections({ ...main, extraCollections: [{ path: '/b', name: 'x' }] }, memory({ includeDefaultMemory: false }));
    expect(a[0].key).not.toBe(b[0].key);
  });

  it('decides membership by root, pattern and hidden segments', () => {
    const [root, dir] = agentCollections(main, memory());
    expect(relativeInCollection(root, '/s/workspace-main/MEMORY.md')).toBe('MEMORY.md');
    expect(relativeInCollection(root, '/s/workspace-main/AGENTS.md')).toBeUndefined();
    expect(relativeInCollection(dir, '/s/workspace-main/memory/a/b.md')).toBe('a/b.md');
    expect(relativeInCollection(dir, '/s/workspace-main/memory/.b.md')).toBeUndefined();
    expect(relativeInCollection(dir, '/s/workspace-main/MEMORY.md')).toBeUndefined();
  });

  it('names files relative to the workspace, or by collection when outside it', () => {
    const cols = agentCollections(main, memory(), [main, family]);
    expect(displayPath(main.workspace, cols[1], 'x.md')).toBe('memory/x.md');
    expect(displayPath(main.workspace, cols[2], 'abc.jsonl')).toBe('family-sessions/abc.jsonl');
  });
});
