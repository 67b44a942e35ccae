import { existsSync } from 'node:fs';
import { Client } from 'pg';
import request from 'supertest';
import { ToolRegistry, type ToolResult } from '../../src/modules/runtime/tool-registry';
import { sessionDatabasePath } from '../../src/modules/sessions/session-database';
import { a2aRpc } from '../support/a2a-rpc';
import { startTestGateway, waitFor, type TestGateway } from '../support/gateway-harness';
import { startPostgres, type TestPostgres } from './support/postgres';

jest.setTimeout(90_000);

const HERMES = 'hermes-token-sessions-pg-5d21';
const config = `{
  gateway: { state: { backend: "postgres", url: "\${DATABASE_URL}" } },
  agents: { list: [{ id: "main", default: true }] },
  memory: { backend: "qmd", embeddings: { provider: "none" }, qmd: { sessions: { enabled: true } } },
  channels: { a2a: { enabled: true, peers: { hermes: { token: "${HERMES}" } } } },
}`;
const CONTEXT = 'ctx-sessions-pg';
const KEY = `agent:main:a2a:default:direct:hermes:${CONTEXT}`;

const send = async (url: string, text: string, messageId: string) => {
  const answer = await a2aRpc(url, HERMES, 'SendMessage', {
    message: { messageId, role: 'ROLE_USER', contextId: CONTEXT, parts: [{ text }] },
  });
  expect(answer.error).toBeUndefined();
  return answer;
};

/**
 * The gateway with `gateway.state.backend: "postgres"`: the session of an A2A context and its transcript are rows of
 * the database, served by /admin/sessions (list, history, export) and indexed by the agent's memory, and nothing of
 * them is in the state dir.
 */
describe('sessions on PostgreSQL (system)', () => {
  let postgres: TestPostgres;
  let url: string;
  let gw: TestGateway | undefined;

  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createDatabase('gateway');
  });
  afterAll(async () => {
    await gw?.stop();
    await postgres?.stop();
  });

  it('keeps the session of one contextId in PostgreSQL, served by the admin pages, history and export, across a restart', async () => {
    gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    await send(gw.url, 'first question', 'm-1');
    await send(gw.url, 'second question', 'm-2');

    const list = await request(gw.url).get('/admin/sessions').query({ agentId: 'main' }).expect(200);
    expect(list.body.sessions.map((s: { sessionKey: string }) => s.sessionKey)).toEqual([KEY]);
    const history = await request(gw.url)
      .get(`/admin/sessions/${encodeURIComponent(KEY)}/history`)
      .expect(200);
    const texts = history.body.lines.map((l: { role: string; text: string }) => [l.role, l.text]);
    // The echo model answers with the agent's name and the question.
    expect(texts).toEqual([
      ['user', 'first question'],
      ['assistant', '[main] first question'],
      ['user', 'second question'],
      ['assistant', '[main] second question'],
    ]);
    const exported = await request(gw.url)
      .get(`/admin/sessions/${encodeURIComponent(KEY)}/export`)
      .expect(200);
    expect(exported.headers['content-disposition']).toContain(`${list.body.sessions[0].sessionId}.jsonl`);
    expect(
      exported.text
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(history.body.lines.map((l: { id: string }) => l.id));
    await request(gw.url)
      .get(`/admin/sessions/${encodeURIComponent('agent:main:nope')}/history`)
      .expect(404);
    await request(gw.url).get('/admin/sessions').query({ cursor: 'not-a-cursor' }).expect(400);

    const db = new Client({ connectionString: url });
    await db.connect();
    const rows = (await db.query('SELECT n, role FROM transcript_lines ORDER BY n')).rows as Array<{ n: number; role: string }>;
    await db.end();
    expect(rows).toEqual([1, 2, 3, 4].map((n) => ({ n, role: n % 2 ? 'user' : 'assistant' })));
    expect(existsSync(sessionDatabasePath(gw.stateDir))).toBe(false);

    gw = await gw.restart();
    const again = await request(gw.url)
      .get(`/admin/sessions/${encodeURIComponent(KEY)}/history`)
      .expect(200);
    expect(again.body.lines).toEqual(history.body.lines);
  });

  it("indexes the transcripts in the agent's memory and follows new lines", async () => {
    if (!gw) gw = await startTestGateway(config, { env: { DATABASE_URL: url } });
    const registry = gw.app.get(ToolRegistry);
    const search = async (query: string) => {
      const r: ToolResult = await registry.call(
        { tools: { allow: [], deny: [] } },
        'memory_search',
        { query },
        {
          sessionKey: 'agent:main:main',
          agentId: 'main',
          signal: new AbortController().signal,
        },
      );
      return (r.results ?? []) as Array<{ collection: string; snippet: string }>;
    };
    // The index opens on the first search and reads the sessions there; the line after it comes through onAppend.
    expect((await search('second question'))[0]).toMatchObject({ collection: 'sessions-main' });
    expect(await search('harbour crane inspection')).toEqual([]);
    await send(gw.url, 'The harbour crane inspection is on Friday.', 'm-3');
    const hit = await waitFor('the A2A line indexed', async () => (await search('harbour crane inspection'))[0], 10_000);
    expect(hit).toMatchObject({ collection: 'sessions-main', snippet: expect.stringContaining('harbour crane') });
  });
});
