import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { tempSessionEnv, TempSessionEnv } from '../../../test/support/temp-session-env';
import { openSqliteReadOnly } from '../../common/storage/sqlite';
import { sessionDatabasePath } from './session-database';
import { SqliteSessionStore } from './sqlite-session.store';
import type { TranscriptAppended } from './session-store.port';
import { asHttp } from '../../../test/support/as-http';

describe('SqliteSessionStore', () => {
  let env: TempSessionEnv;
  let store: SqliteSessionStore;
  beforeEach(async () => {
    env = await tempSessionEnv(['main', 'ops']);
    store = env.newStore();
  });
  afterEach(async () => {
    await env.cleanup();
  });

  /** What another process reading the database file sees: only committed rows. */
  const onDisk = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = openSqliteReadOnly(sessionDatabasePath(env.stateDir));
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };

  describe('create and get', () => {
    it('commits a new entry before getOrCreate resolves', async () => {
      const entry = await store.getOrCreate('agent:main:main', { deliveryContext: { channel: 'telegram', to: '42' } });
      expect(entry).toMatchObject({ sessionKey: 'agent:main:main', agentId: 'main', deliveryContext: { channel: 'telegram', to: '42' } });
      expect(entry.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(onDisk('SELECT session_id FROM sessions WHERE session_key = ?', 'agent:main:main')).toEqual([{ session_id: entry.sessionId }]);
      expect(await store.get('agent:main:main')).toEqual(entry);
      expect(await env.newStore().get('agent:main:main')).toEqual(entry);
    });

    it('canonicalizes keys to lowercase and returns the same session for every spelling', async () => {
      const a = await store.getOrCreate('Agent:Main:Telegram:Direct:Bob');
      const b = await store.getOrCreate('agent:main:telegram:direct:bob');
      expect(a.sessionKey).toBe('agent:main:telegram:direct:bob');
      expect(b.sessionId).toBe(a.sessionId);
    });

    it('creates one session for many concurrent getOrCreate calls', async () => {
      const all = await Promise.all(Array.from({ length: 20 }, () => store.getOrCreate('agent:ops:main')));
      expect(new Set(all.map((e) => e.sessionId)).size).toBe(1);
      expect(onDisk('SELECT session_id FROM sessions WHERE agent_id = ?', 'ops')).toEqual([{ session_id: all[0].sessionId }]);
    });

    it('rejects malformed keys with 400 and stores nothing for them', async () => {
      for (const bad of [
        'main',
        'agent:main:',
        'agent::x',
        'agent:../etc:x',
        'agent:main:a\nb',
        'agent:a/b:c',
        `agent:main:${'x'.repeat(1100)}`,
      ]) {
        await expect(asHttp(store.getOrCreate(bad))).rejects.toMatchObject({ status: 400 });
        await expect(asHttp(store.get(bad))).rejects.toMatchObject({ status: 400 });
      }
      expect(await store.list()).toEqual([]);
      expect(onDisk('SELECT count(*) AS n FROM sessions')).toEqual([{ n: 0 }]);
    });

    it('get of an unknown session or unknown agent is undefined without creating anything', async () => {
      expect(await store.get('agent:main:nope')).toBeUndefined();
      expect(await store.get('agent:ghost:main')).toBeUndefined();
      expect(onDisk('SELECT count(*) AS n FROM sessions')).toEqual([{ n: 0 }]);
    });

    it('keeps spawnedBy fixed but takes a newer delivery context for an existing session', async () => {
      await store.getOrCreate('agent:main:subagent:1', { spawnedBy: 'agent:main:main', deliveryContext: { channel: 'a' } });
      const again = await store.getOrCreate('agent:main:subagent:1', { spawnedBy: 'agent:main:other', deliveryContext: { channel: 'b' } });
      expect(again).toMatchObject({ spawnedBy: 'agent:main:main', deliveryContext: { channel: 'b' } });
      await expect(asHttp(store.getOrCreate('agent:main:x', { spawnedBy: 'agent:main:x' }))).rejects.toMatchObject({ status: 400 });
    });

    it('keeps the sessions of an agent no longer configured, listed only when asked for by agent id', async () => {
      await store.getOrCreate('agent:retired:main');
      await store.flush();
      const fresh = env.newStore();
      expect((await fresh.get('agent:retired:main'))?.agentId).toBe('retired');
      expect(await fresh.list({ agentId: 'retired' })).toHaveLength(1);
      expect((await fresh.list()).map((e) => e.agentId)).not.toContain('retired');
    });
  });

  describe('list', () => {
    it('lists most recently updated first, filtered by agent and label, bounded by limit', async () => {
      await store.getOrCreate('agent:main:a');
      await store.getOrCreate('agent:ops:b', { label: 'deploys' });
      await store.getOrCreate('agent:main:c');
      await new Promise((r) => setTimeout(r, 5));
      await store.append('agent:main:a', { role: 'user', text: 'bump' });

      expect((await store.list()).map((e) => e.sessionKey)).toEqual(['agent:main:a', 'agent:main:c', 'agent:ops:b']);
      expect((await store.list({ agentId: 'main' })).map((e) => e.sessionKey)).toEqual(['agent:main:a', 'agent:main:c']);
      expect((await store.list({ label: 'deploys' })).map((e) => e.sessionKey)).toEqual(['agent:ops:b']);
      expect(await store.list({ label: 'deploys', agentId: 'main' })).toEqual([]);
      expect(await store.list({ limit: 1 })).toHaveLength(1);
      await expect(asHttp(store.list({ limit: 0 }))).rejects.toMatchObject({ status: 400 });
      await expect(asHttp(store.list({ agentId: '../x' }))).rejects.toMatchObject({ status: 400 });
    });

    it('filters by activeMinutes against updatedAt (entries imported from the file layout)', async () => {
      const dir = env.sessionsDir('main');
      await fs.mkdir(dir, { recursive: true });
      const old = new Date(Date.now() - 3 * 3600_000).toISOString();
      const recent = new Date(Date.now() - 5 * 60_000).toISOString();
      await fs.writeFile(
        path.join(dir, 'sessions.json'),
        JSON.stringify({
          'agent:main:old': { sessionKey: 'agent:main:old', sessionId: 'old1', agentId: 'main', createdAt: old, updatedAt: old },
          'agent:main:recent': {
            sessionKey: 'agent:main:recent',
            sessionId: 'recent1',
            agentId: 'main',
            createdAt: old,
            updatedAt: recent,
          },
        }),
      );
      expect((await store.list({ activeMinutes: 60 })).map((e) => e.sessionKey)).toEqual(['agent:main:recent']);
      expect(await store.list({ activeMinutes: 600 })).toHaveLength(2);
      await expect(asHttp(store.list({ activeMinutes: -1 }))).rejects.toMatchObject({ status: 400 });
    });
  });

  describe('labels', () => {
    it('are unique per agent: a taken label is a 409 naming the holder; another agent may reuse it', async () => {
      await store.getOrCreate('agent:main:a', { label: 'research' });
      await store.getOrCreate('agent:main:b');
      const err = await asHttp(store.setLabel('agent:main:b', 'research')).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 409, detail: expect.stringContaining('agent:main:a') });
      await expect(asHttp(store.getOrCreate('agent:main:c', { label: 'research' }))).rejects.toMatchObject({ status: 409 });
      expect(await store.get('agent:main:c')).toBeUndefined();
      await expect(store.getOrCreate('agent:ops:a', { label: 'research' })).resolves.toMatchObject({ label: 'research' });
      // Setting the label a session already holds is a no-op, not a conflict.
      await expect(store.setLabel('agent:main:a', ' research ')).resolves.toMatchObject({ label: 'research' });
    });

    it('checks length 1..512 (400) and answers 404 for an unknown session', async () => {
      await store.getOrCreate('agent:main:a');
      await expect(asHttp(store.setLabel('agent:main:a', '   '))).rejects.toMatchObject({ status: 400 });
      await expect(asHttp(store.setLabel('agent:main:a', 'x'.repeat(513)))).rejects.toMatchObject({ status: 400 });
      await expect(store.setLabel('agent:main:a', 'x'.repeat(512))).resolves.toMatchObject({ label: 'x'.repeat(512) });
      await expect(asHttp(store.setLabel('agent:main:nope', 'y'))).rejects.toMatchObject({ status: 404 });
    });

    it('lets exactly one of two concurrent claims win', async () => {
      await store.getOrCreate('agent:main:a');
      await store.getOrCreate('agent:main:b');
      const results = await Promise.allSettled([store.setLabel('agent:main:a', 'x'), store.setLabel('agent:main:b', 'x')]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    });

    it('resolveLabel finds the holder, follows relabels and survives a restart', async () => {
      await store.getOrCreate('agent:main:a', { label: 'first' });
      expect(await store.resolveLabel('main', 'first')).toBe('agent:main:a');
      expect(await store.resolveLabel('ops', 'first')).toBeUndefined();
      expect(await store.resolveLabel('main', 'x'.repeat(600))).toBeUndefined();
      await store.setLabel('agent:main:a', 'second');
      expect(await store.resolveLabel('main', 'first')).toBeUndefined();
      await store.getOrCreate('agent:main:b', { label: 'first' });
      const fresh = env.newStore();
      expect(await fresh.resolveLabel('MAIN', 'second')).toBe('agent:main:a');
      expect(await fresh.resolveLabel('main', 'first')).toBe('agent:main:b');
    });
  });

  describe('isSpawnedBy', () => {
    beforeEach(async () => {
      await store.getOrCreate('agent:main:main');
      await store.getOrCreate('agent:main:subagent:child', { spawnedBy: 'agent:main:main' });
      await store.getOrCreate('agent:main:subagent:grandchild', { spawnedBy: 'agent:main:subagent:child' });
      await store.getOrCreate('agent:main:other');
    });

    it('is true for direct and transitive ancestors', async () => {
      expect(await store.isSpawnedBy('agent:main:subagent:child', 'agent:main:main')).toBe(true);
      expect(await store.isSpawnedBy('agent:main:subagent:grandchild', 'agent:main:main')).toBe(true);
    });

    it('is false for unrelated sessions, descendants, itself and unknown keys', async () => {
      expect(await store.isSpawnedBy('agent:main:subagent:child', 'agent:main:other')).toBe(false);
      expect(await store.isSpawnedBy('agent:main:main', 'agent:main:subagent:child')).toBe(false);
      expect(await store.isSpawnedBy('agent:main:main', 'agent:main:main')).toBe(false);
      expect(await store.isSpawnedBy('agent:main:nope', 'agent:main:main')).toBe(false);
    });

    it('terminates on a spawnedBy cycle imported from a hand-edited file-layout index', async () => {
      const dir = env.sessionsDir('ops');
      await fs.mkdir(dir, { recursive: true });
      const t = new Date().toISOString();
      const entry = (k: string, parent: string) => ({
        sessionKey: k,
        sessionId: k.split(':')[2],
        agentId: 'ops',
        spawnedBy: parent,
        createdAt: t,
        updatedAt: t,
      });
      await fs.writeFile(
        path.join(dir, 'sessions.json'),
        JSON.stringify({ 'agent:ops:a': entry('agent:ops:a', 'agent:ops:b'), 'agent:ops:b': entry('agent:ops:b', 'agent:ops:a') }),
      );
      // The running store opened its database before the file existed: a restart imports it.
      const restarted = env.newStore();
      expect(await restarted.isSpawnedBy('agent:ops:a', 'agent:ops:zzz')).toBe(false);
      expect(await restarted.isSpawnedBy('agent:ops:a', 'agent:ops:b')).toBe(true);
    });
  });

  describe('transcripts', () => {
    it('keeps call order for 200 concurrent appends to one session, and loses none', async () => {
      const key = 'agent:main:busy';
      const written = await Promise.all(Array.from({ length: 200 }, (_, i) => store.append(key, { role: 'user', text: `m${i}` })));
      expect(new Set(written.map((l) => l.id)).size).toBe(200);
      const { lines, warnings } = await store.history(key);
      expect(warnings).toEqual([]);
      expect(lines.map((l) => l.text)).toEqual(Array.from({ length: 200 }, (_, i) => `m${i}`));
      const restarted = await env.newStore().history(key);
      expect(restarted.lines.map((l) => l.text)).toEqual(lines.map((l) => l.text));
    });

    it('returns the last `limit` lines, and filters tool lines before limiting when includeTools is false', async () => {
      const key = 'agent:main:h';
      await store.append(key, { role: 'user', text: 'q1' });
      await store.append(key, { role: 'assistant', text: 'calling', toolCalls: [{ name: 'memory_search' }] });
      await store.append(key, { role: 'tool', text: 'result' });
      await store.append(key, { role: 'assistant', text: 'a1', runId: 'r1' });
      expect((await store.history(key, { limit: 2 })).lines.map((l) => l.text)).toEqual(['result', 'a1']);
      const noTools = await store.history(key, { limit: 2, includeTools: false });
      expect(noTools.lines.map((l) => l.text)).toEqual(['calling', 'a1']);
      expect(noTools.lines[0]).not.toHaveProperty('toolCalls');
      expect((await store.history(key)).lines).toHaveLength(4);
      await expect(asHttp(store.history(key, { limit: 0 }))).rejects.toMatchObject({ status: 400 });
      await expect(asHttp(store.history('agent:main:none'))).rejects.toMatchObject({ status: 404 });
    });

    it('rejects lines without a known role or text, and bumps updatedAt on append', async () => {
      const created = await store.getOrCreate('agent:main:u');
      await expect(asHttp(store.append('agent:main:u', { role: 'robot' as 'user', text: 'x' }))).rejects.toMatchObject({ status: 400 });
      await new Promise((r) => setTimeout(r, 5));
      await store.append('agent:main:u', { role: 'system', text: 'hello' });
      const after = await store.get('agent:main:u');
      expect(Date.parse(after!.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      await store.flush();
      expect((await env.newStore().get('agent:main:u'))?.updatedAt).toBe(after!.updatedAt);
    });
  });

  describe('pages', () => {
    it('walks every session once, newest first, while new sessions keep arriving', async () => {
      for (let i = 0; i < 45; i++) await store.getOrCreate(`agent:${i % 2 ? 'main' : 'ops'}:s${i}`);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await store.page({ limit: 10, cursor });
        seen.push(...page.sessions.map((e) => e.sessionKey));
        // Created between pages: newer than every cursor, so never part of the walk.
        await store.getOrCreate(`agent:main:late${pages}`);
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(5);
      expect(seen).toHaveLength(45);
      expect(new Set(seen).size).toBe(45);
      expect(seen[0]).toBe('agent:ops:s44');
    });

    it('pages within one agent and refuses a cursor it did not issue', async () => {
      for (let i = 0; i < 5; i++) await store.getOrCreate(`agent:main:p${i}`);
      await store.getOrCreate('agent:ops:other');
      const first = await store.page({ agentId: 'main', limit: 3 });
      const second = await store.page({ agentId: 'main', limit: 3, cursor: first.nextCursor });
      expect([...first.sessions, ...second.sessions].map((e) => e.sessionKey)).toEqual([
        'agent:main:p4',
        'agent:main:p3',
        'agent:main:p2',
        'agent:main:p1',
        'agent:main:p0',
      ]);
      expect(second.nextCursor).toBeUndefined();
      for (const bad of ['nope', Buffer.from('1.x').toString('base64url'), '']) {
        await expect(asHttp(store.page({ cursor: bad }))).rejects.toMatchObject({ status: 400, detail: expect.stringContaining('cursor') });
      }
    });
  });

  describe('export and memory feed', () => {
    it('exports the whole transcript as JSONL, oldest first, in chunks of whole lines', async () => {
      const key = 'agent:main:long';
      await Promise.all(Array.from({ length: 2500 }, (_, i) => store.append(key, { role: 'user', text: `line ${i}` })));
      const chunks: string[] = [];
      for await (const chunk of store.exportTranscript(key)) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.every((c) => c.endsWith('\n'))).toBe(true);
      const lines = chunks
        .join('')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { text: string });
      expect(lines.map((l) => l.text)).toEqual(Array.from({ length: 2500 }, (_, i) => `line ${i}`));
      const unknown = store.exportTranscript('agent:main:none')[Symbol.asyncIterator]();
      await expect(asHttp(unknown.next())).rejects.toMatchObject({ status: 404 });
    });

    it('reports a new version per append and tells listeners after the commit', async () => {
      const seen: TranscriptAppended[] = [];
      const stop = store.onAppend((e) => seen.push(e));
      const { sessionId } = await store.getOrCreate('agent:main:v');
      expect(await store.transcriptVersions('main')).toEqual([
        expect.objectContaining({ sessionKey: 'agent:main:v', sessionId, version: 0 }),
      ]);
      await store.append('agent:main:v', { role: 'user', text: 'one' });
      const [v1] = await store.transcriptVersions('main');
      await store.append('agent:main:v', { role: 'assistant', text: 'two' });
      const [v2] = await store.transcriptVersions('main');
      expect(v2.version).toBeGreaterThan(v1.version);
      expect(await store.transcriptVersion('main', sessionId)).toEqual(v2);
      expect(await store.transcriptVersion('ops', sessionId)).toBeUndefined();
      expect(await store.transcriptVersion('main', 'no-such-id')).toBeUndefined();
      expect(seen).toEqual([
        { agentId: 'main', sessionKey: 'agent:main:v', sessionId },
        { agentId: 'main', sessionKey: 'agent:main:v', sessionId },
      ]);
      stop();
      await store.append('agent:main:v', { role: 'user', text: 'three' });
      expect(seen).toHaveLength(2);
    });
  });
});
