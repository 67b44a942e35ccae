import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { MemoryService } from '../../src/modules/memory/memory.service';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { ToolRegistry, ToolResult } from '../../src/modules/runtime/tool-registry';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/*
 * Seeds scenario 9.3 ("family agent shared memory"): main mounts family's session transcripts through
 * extraCollections; family gets nothing of main's. The config is the seed's, with paths under the test's
 * HOME (the harness sets HOME to the temp dir and the state dir to <HOME>/state).
 */
const CONFIG = `{
  agents: {
    list: [
      { id: "main", workspace: "~/state/workspace-main",
        memorySearch: { qmd: { extraCollections: [
          { path: "~/state/agents/family/sessions", name: "family-sessions" }
        ]}}},
      { id: "family", workspace: "~/state/workspace-family" },
    ],
  },
  memory: { backend: "qmd" },
}`;

type Hit = { collection: string; path: string; startLine: number; endLine: number; score: number; snippet: string };

describe('memory isolation and directional sharing (seeds §9.3, e2e)', () => {
  let gw: TestGateway;
  let registry: ToolRegistry;
  const open = { tools: { allow: [], deny: [] } };
  const ctx = (agentId: string) => ({ sessionKey: `agent:${agentId}:main`, agentId, signal: new AbortController().signal });
  const call = (agentId: string, tool: string, args: Record<string, unknown>): Promise<ToolResult> =>
    registry.call(open, tool, args, ctx(agentId));
  const search = async (agentId: string, query: string): Promise<Hit[]> => {
    const r = await call(agentId, 'memory_search', { query });
    expect(r.status).toBe('ok');
    return r.results as Hit[];
  };
  let mainWs: string;
  let familyWs: string;
  let familyTranscript: string;
  let sessions: SessionStore;

  beforeAll(async () => {
    gw = await startTestGateway(CONFIG);
    registry = gw.app.get(ToolRegistry);
    mainWs = path.join(gw.stateDir, 'workspace-main');
    familyWs = path.join(gw.stateDir, 'workspace-family');

    // A fact enters family's transcript through a real run (echo model), as a family chat would.
    const runner = gw.app.get(AgentRunner);
    const run = runner.startRun({
      sessionKey: 'agent:family:main',
      message: 'Grandpa Joe keeps the spare canoe paddles in the red shed behind the barn.',
    });
    expect((await run.done).status).toBe('completed');
    sessions = gw.app.get<SessionStore>(SESSION_STORE);
    const entry = await sessions.get('agent:family:main');
    // Where the file layout kept the transcript: the session store serves it to memory under that name.
    familyTranscript = path.join(gw.stateDir, 'agents', 'family', 'sessions', `${entry!.sessionId}.jsonl`);

    // A fact only main knows, and one only family knows.
    await fs.mkdir(mainWs, { recursive: true });
    await fs.writeFile(path.join(mainWs, 'MEMORY.md'), '# Private\n\nThe safe combination is 27-14-9; the safe is in the study.\n');
    await fs.mkdir(path.join(familyWs, 'memory'), { recursive: true });
    await fs.writeFile(path.join(familyWs, 'MEMORY.md'), '# Family\n\nShopping list: oat milk, rye bread, lemons.\n');
  });
  afterAll(() => gw.stop());

  it('registers memory_search and memory_get as agent tools', () => {
    expect(registry.names()).toEqual(expect.arrayContaining(['memory_search', 'memory_get']));
  });

  it("main finds the fact in family's transcript, cited by its JSONL lines", async () => {
    const hits = await search('main', 'where are the canoe paddles');
    const top = hits[0];
    expect(top).toMatchObject({
      collection: 'family-sessions',
      path: `family-sessions/${path.basename(familyTranscript)}`,
      startLine: 1,
      endLine: 2,
    });
    expect(top.snippet).toContain('user: Grandpa Joe keeps the spare canoe paddles');
    expect(top.score).toBeGreaterThan(0.5);
    expect(top.score).toBeLessThanOrEqual(1);
    let exported = '';
    for await (const chunk of sessions.exportTranscript('agent:family:main')) exported += chunk;
    const lines = exported
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { role: string });
    expect(lines.map((l) => l.role)).toEqual(['user', 'assistant']);
    // Served from the session store: no transcript file exists on disk.
    await expect(fs.stat(familyTranscript)).rejects.toMatchObject({ code: 'ENOENT' });

    // memory_get reads it back through the same grant (read-only: there is no write tool at all).
    const got = await call('main', 'memory_get', { path: top.path, from: 1, lines: 1 });
    expect(got).toMatchObject({ status: 'ok', path: top.path, from: 1, to: 1 });
    expect(JSON.parse(got.text as string)).toMatchObject({ role: 'user', text: expect.stringContaining('canoe paddles') });
    expect(registry.names().filter((n) => n.startsWith('memory_'))).toEqual(['memory_search', 'memory_get']);
  });

  it("family finds nothing of main's, and main's own memory is searchable by main", async () => {
    const family = await search('family', 'safe combination in the study');
    expect(family.every((h) => h.collection.endsWith('-family'))).toBe(true);
    expect(JSON.stringify(family)).not.toContain('27-14-9');
    expect(family.map((h) => h.path)).toEqual(expect.not.arrayContaining(['../workspace-main/MEMORY.md']));

    const main = await search('main', 'safe combination in the study');
    expect(main[0]).toMatchObject({ collection: 'memory-root-main', path: 'MEMORY.md' });
    expect(main[0].snippet).toContain('27-14-9');
  });

  it("family's own memory works from family's side", async () => {
    const hits = await search('family', 'what is on the shopping list');
    expect(hits[0]).toMatchObject({ collection: 'memory-root-family', path: 'MEMORY.md', startLine: 1, endLine: 3 });
    expect(await call('family', 'memory_get', { path: 'MEMORY.md' })).toMatchObject({
      status: 'ok',
      path: 'MEMORY.md',
      text: '# Family\n\nShopping list: oat milk, rye bread, lemons.',
    });
  });

  it("refuses main's files from family's side however they are named", async () => {
    const mainMemory = path.join(mainWs, 'MEMORY.md');
    await fs.symlink(mainMemory, path.join(familyWs, 'memory', 'leak.md'));
    await fs.symlink(mainWs, path.join(familyWs, 'memory', 'main-ws'));
    for (const p of [
      mainMemory,
      '../workspace-main/MEMORY.md',
      'memory/../../workspace-main/MEMORY.md',
      'memory/leak.md',
      'memory/main-ws/MEMORY.md',
      '/etc/passwd',
      `family-sessions/${path.basename(familyTranscript)}`,
    ]) {
      const r = await call('family', 'memory_get', { path: p });
      expect({ p, status: r.status }).toEqual({ p, status: 'forbidden' });
      expect(typeof r.error).toBe('string');
      expect(JSON.stringify(r)).not.toContain('27-14-9');
    }
    // The symlink is not indexed either: after a full reindex family still cannot find main's fact.
    const reindex = await request(gw.url).post('/admin/agents/family/memory/reindex').set(API_CLIENT).expect(200);
    expect(reindex.body).toMatchObject({ agentId: 'family', removed: 0 });
    expect(JSON.stringify(await search('family', 'safe combination 27-14-9'))).not.toContain('27-14-9');
  });

  it('serves the same result shape on the admin search endpoint, and lists the collections', async () => {
    const res = await request(gw.url).get('/admin/agents/main/memory/search').query({ q: 'canoe paddles', limit: 2 }).expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.results.length).toBeLessThanOrEqual(2);
    expect(res.body.results[0]).toEqual({
      collection: 'family-sessions',
      path: `family-sessions/${path.basename(familyTranscript)}`,
      startLine: 1,
      endLine: 2,
      score: expect.any(Number),
      snippet: expect.stringContaining('canoe paddles'),
    });
    const cols = await request(gw.url).get('/admin/agents/main/memory/collections').expect(200);
    expect(cols.body.collections.map((c: { name: string; kind: string }) => [c.name, c.kind])).toEqual([
      ['memory-root-main', 'memory-root'],
      ['memory-dir-main', 'memory-dir'],
      ['family-sessions', 'extra'],
    ]);
    expect(cols.body.embeddings).toEqual({ provider: 'bundled', fingerprint: 'bundled:use-lite-512' });
    const famCols = await request(gw.url).get('/admin/agents/family/memory/collections').expect(200);
    expect(famCols.body.collections.map((c: { name: string }) => c.name)).toEqual(['memory-root-family', 'memory-dir-family']);
    await gw.app
      .get(MemoryService)
      .forAgent('main')
      .then((m) => m.idle());
    const after = await request(gw.url).get('/admin/agents/main/memory/collections').expect(200);
    const fam = after.body.collections.find((c: { name: string }) => c.name === 'family-sessions');
    expect(fam).toMatchObject({
      files: 1,
      chunks: 1,
      embedded: 1,
      pending: 0,
      lagMs: 0,
      path: path.join(gw.stateDir, 'agents', 'family', 'sessions'),
    });
  });

  it('GET /admin/agents/:id/memory/file reads a file as memory_get does, with the same refusals', async () => {
    const file = (agent: string, query: Record<string, unknown> | string) =>
      request(gw.url).get(`/admin/agents/${agent}/memory/file`).query(query);
    expect((await file('family', { path: 'MEMORY.md', from: 3, lines: 1 }).expect(200)).body).toEqual({
      status: 'ok',
      path: 'MEMORY.md',
      text: 'Shopping list: oat milk, rye bread, lemons.',
      from: 3,
      to: 3,
      totalLines: 3,
      truncated: false,
    });
    // main reads family's transcript through its grant, by the name search gave it.
    const transcript = `family-sessions/${path.basename(familyTranscript)}`;
    expect((await file('main', { path: transcript, lines: 1 }).expect(200)).body).toMatchObject({
      status: 'ok',
      path: transcript,
      from: 1,
      to: 1,
    });

    // The same paths memory_get refuses (the symlinks planted above included), as problem+json 403.
    for (const p of [
      path.join(mainWs, 'MEMORY.md'),
      '../workspace-main/MEMORY.md',
      'memory/leak.md',
      'memory/main-ws/MEMORY.md',
      '/etc/passwd',
      transcript,
    ]) {
      const res = await file('family', { path: p });
      expect({ p, status: res.status }).toEqual({ p, status: 403 });
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body.detail).toMatch(/path must not contain ".."|outside this agent's memory collections/);
      expect(JSON.stringify(res.body)).not.toContain('27-14-9');
    }
    const missing = await file('family', { path: 'memory/nothing.md' }).expect(404);
    expect(missing.body.detail).toBe("no file memory/nothing.md in this agent's memory");
    expect((await file('ghost', { path: 'MEMORY.md' }).expect(404)).body.detail).toBe('no agent "ghost"');
  });

  it('answers 400 naming the parameter for bad input to the file endpoint, and keeps serving', async () => {
    for (const [query, names] of [
      ['', 'path'],
      ['path=', 'path'],
      [`path=${'a'.repeat(4097)}`, 'path'],
      ['path=MEMORY.md&from=0', 'from'],
      ['path=MEMORY.md&from=x', 'from'],
      ['path=MEMORY.md&lines=0', 'lines'],
      ['path=MEMORY.md&lines=100001', 'lines'],
      ['path=MEMORY.md&lines=1.5', 'lines'],
      ['path=MEMORY.md&path=x.md', 'path'],
      ['path=MEMORY.md&other=1', 'other'],
    ] as const) {
      const res = await request(gw.url).get(`/admin/agents/family/memory/file?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect({ query, names: JSON.stringify(res.body).includes(names) }).toEqual({ query, names: true });
    }
    await request(gw.url).get('/admin/agents/family/memory/file').query({ path: 'MEMORY.md' }).expect(200);
  });
});
