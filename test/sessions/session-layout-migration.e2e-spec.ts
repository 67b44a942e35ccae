import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * A state dir written by the file layout — what earlier versions of the gateway (and OpenClaw) leave: per
 * agent `agents/<id>/sessions/sessions.json` plus one `<sessionId>.jsonl` per session — opened by a gateway
 * with the database store. Every session, label, lineage, route and transcript line must be there, through
 * the admin API, and the gateway must go on working with them.
 */
const CONFIG = `{
  agents: { list: [{ id: "main", default: true }, { id: "ops" }, { id: "family" }] },
}`;
const AGENTS = ['main', 'ops', 'family'];
const PER_AGENT = 100;
const enc = encodeURIComponent;

interface OldEntry {
  sessionKey: string;
  sessionId: string;
  agentId: string;
  label?: string;
  spawnedBy?: string;
  createdAt: string | number;
  updatedAt: string | number;
  deliveryContext?: Record<string, string>;
}

/** Writes the layout the file store wrote (indented JSON index, one JSON object per transcript line). */
async function writeOldLayout(stateDir: string): Promise<Map<string, { entry: OldEntry; texts: string[] }>> {
  const expected = new Map<string, { entry: OldEntry; texts: string[] }>();
  const base = Date.parse('2026-11-20T08:00:00.000Z');
  for (const agentId of AGENTS) {
    const dir = path.join(stateDir, 'agents', agentId, 'sessions');
    await fs.mkdir(dir, { recursive: true });
    const index: Record<string, OldEntry> = {};
    for (let i = 0; i < PER_AGENT; i++) {
      const key = i === 0 ? `agent:${agentId}:main` : `agent:${agentId}:telegram:direct:user${i}`;
      const at = base + i * 60_000 + AGENTS.indexOf(agentId) * 1000;
      const entry: OldEntry = {
        sessionKey: key,
        sessionId: `${agentId}-${String(i).padStart(4, '0')}-6f1c2a9e`,
        agentId,
        // OpenClaw wrote epoch milliseconds; the gateway wrote ISO strings.
        createdAt: i % 2 ? at : new Date(at).toISOString(),
        updatedAt: new Date(at + 30_000).toISOString(),
        ...(i % 10 === 3 ? { label: `topic-${i}` } : {}),
        ...(i % 10 === 5 ? { spawnedBy: `agent:${agentId}:main` } : {}),
        ...(i % 4 === 1 ? { deliveryContext: { channel: 'telegram', accountId: 'default', to: `user${i}` } } : {}),
      };
      index[key] = entry;
      const texts = [`question ${agentId} ${i}`, `answer ${agentId} ${i}`];
      const lines = [
        { id: `${i}-u`, ts: new Date(at).toISOString(), role: 'user', text: texts[0] },
        {
          id: `${i}-a`,
          ts: new Date(at + 1000).toISOString(),
          role: 'assistant',
          text: texts[1],
          runId: `run-${i}`,
          meta: { model: 'echo/default' },
        },
      ];
      if (i % 7 === 0) {
        texts.push('tool output');
        lines.push({ id: `${i}-t`, ts: new Date(at + 2000).toISOString(), role: 'tool', text: 'tool output' });
      }
      let text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
      // A gateway killed mid-append left a torn last line in some transcripts.
      if (i % 25 === 24) text += '{"id":"torn","ts":"2026-11-20T09:00:00.000Z","role":"assis';
      await fs.writeFile(path.join(dir, `${entry.sessionId}.jsonl`), text);
      expected.set(key, { entry, texts });
    }
    await fs.writeFile(path.join(dir, 'sessions.json'), `${JSON.stringify(index, null, 2)}\n`);
  }
  return expected;
}

describe('a state dir of the file layout (e2e)', () => {
  let gw: TestGateway;
  let expected: Map<string, { entry: OldEntry; texts: string[] }>;
  beforeAll(async () => {
    // Lay the old files where the gateway's state dir will be, then boot it on them.
    gw = await startTestGateway(CONFIG, {
      beforeStart: async (stateDir) => {
        expected = await writeOldLayout(stateDir);
      },
    });
  });
  afterAll(() => gw.stop());

  it('opens with every session, label, lineage and route intact', async () => {
    const listed = new Map<string, Record<string, unknown>>();
    let cursor: string | undefined;
    do {
      const res = await request(gw.url)
        .get(`/admin/sessions?limit=100${cursor ? `&cursor=${enc(cursor)}` : ''}`)
        .expect(200);
      for (const s of res.body.sessions as Array<Record<string, unknown>>) listed.set(s.sessionKey as string, s);
      cursor = res.body.nextCursor as string | undefined;
    } while (cursor);
    expect(listed.size).toBe(AGENTS.length * PER_AGENT);
    for (const [key, { entry }] of expected) {
      expect(listed.get(key)).toEqual({
        sessionKey: key,
        sessionId: entry.sessionId,
        agentId: entry.agentId,
        createdAt: new Date(entry.createdAt).toISOString(),
        updatedAt: entry.updatedAt,
        ...(entry.label ? { label: entry.label } : {}),
        ...(entry.spawnedBy ? { spawnedBy: entry.spawnedBy } : {}),
        ...(entry.deliveryContext ? { deliveryContext: entry.deliveryContext } : {}),
      });
    }
    const labelled = await request(gw.url).get('/admin/sessions?agentId=ops&label=topic-13').expect(200);
    expect(labelled.body.sessions.map((s: { sessionKey: string }) => s.sessionKey)).toEqual(['agent:ops:telegram:direct:user13']);
  });

  it('serves every transcript line, skipping only the torn ones', async () => {
    for (const [key, { texts }] of expected) {
      const res = await request(gw.url)
        .get(`/admin/sessions/${enc(key)}/history?limit=1000&includeTools=true`)
        .expect(200);
      expect(res.body.lines.map((l: { text: string }) => l.text)).toEqual(texts);
    }
  });

  it('goes on with the imported sessions: a new turn lands after the old lines, a taken label stays taken', async () => {
    const store = gw.app.get<SessionStore>(SESSION_STORE);
    await store.append('agent:family:main', { role: 'user', text: 'after the move' });
    const history = await store.history('agent:family:main');
    expect(history.lines.map((l) => l.text)).toEqual(['question family 0', 'answer family 0', 'tool output', 'after the move']);
    await expect(store.getOrCreate('agent:family:telegram:direct:user1', { label: 'topic-3' })).rejects.toMatchObject({
      detail: expect.stringContaining('agent:family:telegram:direct:user3'),
    });
    expect(await store.isSpawnedBy('agent:family:telegram:direct:user5', 'agent:family:main')).toBe(true);
    const names = await fs.readdir(path.join(gw.stateDir, 'agents', 'family', 'sessions'));
    expect(names).toContain('sessions.json.migrated');
    expect(names).not.toContain('sessions.json');
  });
});
