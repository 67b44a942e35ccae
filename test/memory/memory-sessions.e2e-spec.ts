import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { ConfigStore } from '../../src/modules/config/config.store';
import { AgentRunner } from '../../src/modules/runtime/agent-runner.service';
import { ToolRegistry, ToolResult } from '../../src/modules/runtime/tool-registry';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/*
 * Collections on the session dirs of the gateway's own state dir read the session store (transcripts are
 * rows there, not files); a directory elsewhere that looks like a session dir is still read as files.
 * Default debounce (1500 ms), as an operator would run it.
 */
const config = (grants = true) => `{
  agents: { list: [
    { id: "main"${
      grants
        ? `, memorySearch: { qmd: { extraCollections: [
      { path: "~/state/agents/family/sessions", name: "family-sessions" },
      { path: "~/state/agents/retired/sessions", name: "retired-sessions" },
      { path: "~/copied/agents/family/sessions", name: "old-layout" },
    ] } }`
        : ''
    } },
    { id: "family" },
  ] },
  memory: { backend: "qmd", embeddings: { provider: "none" }, qmd: { sessions: { enabled: true } } },
}`;

type Hit = { collection: string; path: string; startLine: number; endLine: number; snippet: string };
const jsonl = (...lines: Array<[string, string]>) =>
  lines.map(([role, text], i) => `${JSON.stringify({ id: `l${i}`, ts: '2025-01-01T00:00:00Z', role, text })}\n`).join('');

describe('memory over the session store (e2e)', () => {
  let gw: TestGateway;
  let sessions: SessionStore;
  let registry: ToolRegistry;
  const open = { tools: { allow: [], deny: [] } };
  const call = (agentId: string, tool: string, args: Record<string, unknown>): Promise<ToolResult> =>
    registry.call(open, tool, args, { sessionKey: `agent:${agentId}:main`, agentId, signal: new AbortController().signal });
  const search = async (agentId: string, query: string): Promise<Hit[]> => {
    const r = await call(agentId, 'memory_search', { query });
    expect(r.status).toBe('ok');
    return r.results as Hit[];
  };
  const sessionId = async (key: string) => (await sessions.get(key))!.sessionId;

  beforeAll(async () => {
    gw = await startTestGateway(config());
    sessions = gw.app.get<SessionStore>(SESSION_STORE);
    registry = gw.app.get(ToolRegistry);
    // A fact in family's transcript from a real run, before main's memory is first opened.
    const run = gw.app
      .get(AgentRunner)
      .startRun({ sessionKey: 'agent:family:main', message: 'The kayak trailer key hangs by the fuse box.' });
    expect((await run.done).status).toBe('completed');
  });
  afterAll(() => gw.stop());

  it('indexes the sessions present when the memory opens, cited by JSONL line', async () => {
    const hits = await search('main', 'kayak trailer key');
    expect(hits[0]).toMatchObject({
      collection: 'family-sessions',
      path: `family-sessions/${await sessionId('agent:family:main')}.jsonl`,
      startLine: 1,
      endLine: 2,
    });
    expect(hits[0].snippet).toContain('user: The kayak trailer key hangs by the fuse box.');
  });

  it('an append to a session is searchable within 3 s, with the line numbers of its export', async () => {
    const started = Date.now();
    await sessions.append('agent:family:main', { role: 'user', text: 'The lighthouse ferry now leaves at 7:40 on Sundays.' });
    const hit = await waitFor(
      'the appended line indexed',
      async () => (await search('main', 'lighthouse ferry sundays')).find((h) => h.collection === 'family-sessions'),
      3000,
    );
    const elapsed = Date.now() - started;
    console.log(`transcript append searchable after ${elapsed} ms`);
    expect(elapsed).toBeLessThan(3000);
    expect(hit.endLine).toBe(3);

    const got = await call('main', 'memory_get', { path: hit.path, from: 3, lines: 1 });
    expect(got).toMatchObject({ status: 'ok', path: hit.path, from: 3, to: 3, totalLines: 3, truncated: false });
    expect(JSON.parse(got.text as string)).toMatchObject({ role: 'user', text: expect.stringContaining('lighthouse ferry') });
    // The same document by its absolute (former file) path.
    const absolute = path.join(gw.stateDir, 'agents', 'family', 'sessions', path.basename(hit.path));
    expect(await call('main', 'memory_get', { path: absolute })).toMatchObject({ status: 'ok', path: hit.path, from: 1, to: 3 });
  });

  it('a new session, and one of an agent no longer configured, become searchable too', async () => {
    await sessions.append('agent:family:direct:grandma', { role: 'user', text: 'The quilting circle meets on Thursday at the library.' });
    await sessions.append('agent:retired:main', { role: 'assistant', text: 'The old greenhouse alarm code was 5521.' });
    const grandma = await sessionId('agent:family:direct:grandma');
    await waitFor('new session indexed', async () =>
      (await search('main', 'quilting circle library')).some((h) => h.path === `family-sessions/${grandma}.jsonl`),
    );
    await waitFor('retired session indexed', async () =>
      (await search('main', 'greenhouse alarm code')).some((h) => h.collection === 'retired-sessions'),
    );
  });

  it("indexes the agent's own transcripts (sessions.enabled), and follows them live", async () => {
    await sessions.append('agent:main:main', { role: 'user', text: 'Remember that the boat insurance renews in March.' });
    const own = await sessionId('agent:main:main');
    await waitFor('own transcript indexed', async () =>
      (await search('main', 'boat insurance renews')).some((h) => h.path === `sessions-main/${own}.jsonl`),
    );
    // Family's own collection sees family's sessions, never main's.
    expect(JSON.stringify(await search('family', 'boat insurance renews'))).not.toContain('insurance');
    expect((await search('family', 'lighthouse ferry'))[0]).toMatchObject({ collection: 'sessions-family' });
  });

  it('ignores transcript files left in a session dir of the state dir, and reads a copied layout as files', async () => {
    const stale = path.join(gw.stateDir, 'agents', 'family', 'sessions', 'leftover.jsonl');
    await fs.mkdir(path.dirname(stale), { recursive: true });
    await fs.writeFile(stale, jsonl(['user', 'The zeppelin hangar is behind the orchard.']));
    const copied = path.join(gw.dir, 'copied', 'agents', 'family', 'sessions', 'abc.jsonl');
    await fs.mkdir(path.dirname(copied), { recursive: true });
    await fs.writeFile(copied, jsonl(['user', 'The tandem bicycle needs new brake pads.']));
    await waitFor('copied file indexed', async () => (await search('main', 'tandem bicycle brake'))[0]?.path === 'old-layout/abc.jsonl');
    await fs.appendFile(copied, jsonl(['assistant', 'Order the brake pads from the harbour bike shop.']).replace('"l0"', '"l1"'));
    await waitFor('copied file followed', async () => (await search('main', 'harbour bike shop'))[0]?.endLine === 2);

    const report = await request(gw.url).post('/admin/agents/main/memory/reindex').set(API_CLIENT).expect(200);
    expect(report.body).toMatchObject({ skipped: [] });
    expect(JSON.stringify(await search('main', 'zeppelin hangar orchard'))).not.toContain('zeppelin');
    expect(await call('main', 'memory_get', { path: 'family-sessions/leftover.jsonl' })).toEqual({
      status: 'not_found',
      error: "no file family-sessions/leftover.jsonl in this agent's memory",
    });
    expect(await call('main', 'memory_get', { path: 'old-layout/abc.jsonl', from: 2 })).toMatchObject({ status: 'ok', from: 2, to: 2 });

    const cols = await request(gw.url).get('/admin/agents/main/memory/collections').expect(200);
    const byName = new Map((cols.body.collections as Array<{ name: string; files: number }>).map((c) => [c.name, c.files]));
    expect(Object.fromEntries(byName)).toMatchObject({ 'family-sessions': 2, 'retired-sessions': 1, 'old-layout': 1, 'sessions-main': 1 });
  });

  it('refuses session paths outside the caller’s collections and answers not_found for unknown ones inside', async () => {
    const fam = await sessionId('agent:family:main');
    const own = await sessionId('agent:main:main');
    const dir = path.join(gw.stateDir, 'agents');
    const cases: Array<[string, string, string]> = [
      ['family', `family-sessions/${fam}.jsonl`, 'forbidden'], // not family's grant name
      ['family', `sessions-main/${own}.jsonl`, 'forbidden'],
      ['family', path.join(dir, 'main', 'sessions', `${own}.jsonl`), 'forbidden'],
      ['family', path.join(dir, 'retired', 'sessions', `${await sessionId('agent:retired:main')}.jsonl`), 'forbidden'],
      ['main', `family-sessions/../sessions/${fam}.jsonl`, 'forbidden'],
      ['main', `family-sessions/sub/${fam}.jsonl`, 'forbidden'], // the pattern has no subdirectories for transcripts
      ['main', `family-sessions/.${fam}.jsonl`, 'forbidden'],
      ['main', `family-sessions/${fam}.txt`, 'forbidden'],
      ['main', 'family-sessions/00000000-0000-0000-0000-000000000000.jsonl', 'not_found'],
      ['main', `family-sessions/${own}.jsonl`, 'not_found'], // main's session is not in family's dir
      ['main', 'family-sessions/sessions.json.migrated', 'forbidden'],
    ];
    for (const [agent, p, status] of cases) {
      const r = await call(agent, 'memory_get', { path: p });
      expect({ agent, p, status: r.status }).toEqual({ agent, p, status });
      expect(JSON.stringify(r)).not.toContain('lighthouse');
    }
    expect((await call('family', 'memory_get', { path: `sessions-family/${fam}.jsonl`, from: 2, lines: 1 })).status).toBe('ok');
  });

  it('stops following a session dir whose grant a reload removed', async () => {
    await gw.writeConfig(config(false));
    await waitFor(
      'config applied',
      async () => gw.app.get(ConfigStore).current().agentsById.get('main')!.extraCollections.length === 0,
      5000,
    );
    await sessions.append('agent:family:main', { role: 'user', text: 'The walnut tree by the pond was struck by lightning.' });
    expect((await search('main', 'walnut tree lightning')).filter((h) => h.collection !== 'sessions-main')).toEqual([]);
    // Family's own collection still follows its session.
    await waitFor(
      'family indexed its append',
      async () => (await search('family', 'walnut tree lightning'))[0]?.collection === 'sessions-family',
    );
    expect((await search('main', 'walnut tree lightning')).filter((h) => h.collection !== 'sessions-main')).toEqual([]);
  });
});
