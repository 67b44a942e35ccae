import type { SessionEntry } from '../../src/modules/sessions/session-store.port';
import { asHttp } from './as-http';
import type { ContractContext, SessionStoreFixture } from './session-store-fixture';
import { pause } from './session-store-fixture';
import { describeTranscriptContract } from './session-transcript-contract';

export type { SessionStoreFixture } from './session-store-fixture';

/**
 * What every SessionStore does (session-store.port.ts), run against each implementation: SQLite in `npm test`
 * (src/modules/sessions/sqlite-session.store.spec.ts), PostgreSQL in the system tier (test/system/pg-session-store.system-spec.ts).
 */
export function describeSessionStoreContract(name: string, createFixture: () => Promise<SessionStoreFixture>): void {
  describe(`SessionStore contract: ${name}`, () => {
    const ctx = {} as ContractContext;
    beforeEach(async () => {
      ctx.fixture = await createFixture();
      ctx.store = await ctx.fixture.open();
    });
    afterEach(async () => {
      await ctx.fixture.dispose();
    });
    describeSessionContract(ctx);
    describeTranscriptContract(ctx);
  });
}

function describeSessionContract(ctx: ContractContext): void {
  const reopen = () => ctx.fixture.open();

  describe('create and get', () => {
    it('has a new entry stored when getOrCreate resolves', async () => {
      const entry = await ctx.store.getOrCreate('agent:main:main', { deliveryContext: { channel: 'telegram', to: '42' } });
      expect(entry).toMatchObject({ sessionKey: 'agent:main:main', agentId: 'main', deliveryContext: { channel: 'telegram', to: '42' } });
      expect(entry.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(await ctx.store.get('agent:main:main')).toEqual(entry);
      expect(await (await reopen()).get('agent:main:main')).toEqual(entry);
    });

    it('canonicalizes keys to lowercase and returns the same session for every spelling', async () => {
      const a = await ctx.store.getOrCreate('Agent:Main:Telegram:Direct:Bob');
      const b = await ctx.store.getOrCreate('agent:main:telegram:direct:bob');
      expect(a.sessionKey).toBe('agent:main:telegram:direct:bob');
      expect(b.sessionId).toBe(a.sessionId);
    });

    it('creates one session for many concurrent getOrCreate calls', async () => {
      const all = await Promise.all(Array.from({ length: 20 }, () => ctx.store.getOrCreate('agent:ops:main')));
      expect(new Set(all.map((e) => e.sessionId)).size).toBe(1);
      expect((await (await reopen()).list({ agentId: 'ops' })).map((e) => e.sessionId)).toEqual([all[0].sessionId]);
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
        await expect(asHttp(ctx.store.getOrCreate(bad))).rejects.toMatchObject({ status: 400 });
        await expect(asHttp(ctx.store.get(bad))).rejects.toMatchObject({ status: 400 });
      }
      expect(await ctx.store.list()).toEqual([]);
    });

    it('get of an unknown session or unknown agent is undefined without creating anything', async () => {
      expect(await ctx.store.get('agent:main:nope')).toBeUndefined();
      expect(await ctx.store.get('agent:ghost:main')).toBeUndefined();
      expect(await ctx.store.list()).toEqual([]);
      expect(await ctx.store.list({ agentId: 'ghost' })).toEqual([]);
    });

    it('keeps spawnedBy fixed but takes a newer delivery context for an existing session', async () => {
      await ctx.store.getOrCreate('agent:main:subagent:1', { spawnedBy: 'agent:main:main', deliveryContext: { channel: 'a' } });
      const again = await ctx.store.getOrCreate('agent:main:subagent:1', {
        spawnedBy: 'agent:main:other',
        deliveryContext: { channel: 'b' },
      });
      expect(again).toMatchObject({ spawnedBy: 'agent:main:main', deliveryContext: { channel: 'b' } });
      expect((await (await reopen()).get('agent:main:subagent:1'))?.deliveryContext).toEqual({ channel: 'b' });
      await expect(asHttp(ctx.store.getOrCreate('agent:main:x', { spawnedBy: 'agent:main:x' }))).rejects.toMatchObject({ status: 400 });
    });

    it('keeps the sessions of an agent no longer configured, listed only when asked for by agent id', async () => {
      await ctx.store.getOrCreate('agent:retired:main');
      const fresh = await reopen();
      expect((await fresh.get('agent:retired:main'))?.agentId).toBe('retired');
      expect(await fresh.list({ agentId: 'retired' })).toHaveLength(1);
      expect((await fresh.list()).map((e) => e.agentId)).not.toContain('retired');
    });
  });

  describe('list', () => {
    it('lists most recently updated first, filtered by agent and label, bounded by limit', async () => {
      await ctx.store.getOrCreate('agent:main:a');
      await ctx.store.getOrCreate('agent:ops:b', { label: 'deploys' });
      await ctx.store.getOrCreate('agent:main:c');
      await pause(5);
      await ctx.store.append('agent:main:a', { role: 'user', text: 'bump' });

      expect((await ctx.store.list()).map((e) => e.sessionKey)).toEqual(['agent:main:a', 'agent:main:c', 'agent:ops:b']);
      expect((await ctx.store.list({ agentId: 'main' })).map((e) => e.sessionKey)).toEqual(['agent:main:a', 'agent:main:c']);
      expect((await ctx.store.list({ label: 'deploys' })).map((e) => e.sessionKey)).toEqual(['agent:ops:b']);
      expect(await ctx.store.list({ label: 'deploys', agentId: 'main' })).toEqual([]);
      expect(await ctx.store.list({ label: ' '.repeat(3) })).toEqual([]);
      expect(await ctx.store.list({ limit: 1 })).toHaveLength(1);
      await expect(asHttp(ctx.store.list({ limit: 0 }))).rejects.toMatchObject({ status: 400 });
      await expect(asHttp(ctx.store.list({ agentId: '../x' }))).rejects.toMatchObject({ status: 400 });
    });

    it('filters by activeMinutes against updatedAt (entries written by an older gateway)', async () => {
      const old = new Date(Date.now() - 3 * 3600_000).toISOString();
      const recent = new Date(Date.now() - 5 * 60_000).toISOString();
      await ctx.fixture.seed([
        { sessionKey: 'agent:main:old', sessionId: 'old1', agentId: 'main', createdAt: old, updatedAt: old },
        { sessionKey: 'agent:main:recent', sessionId: 'recent1', agentId: 'main', createdAt: old, updatedAt: recent },
      ]);
      const store = await reopen();
      expect((await store.list({ activeMinutes: 60 })).map((e) => e.sessionKey)).toEqual(['agent:main:recent']);
      expect(await store.list({ activeMinutes: 600 })).toHaveLength(2);
      await expect(asHttp(store.list({ activeMinutes: -1 }))).rejects.toMatchObject({ status: 400 });
    });
  });

  describe('labels', () => {
    it('are unique per agent: a taken label is a 409 naming the holder; another agent may reuse it', async () => {
      await ctx.store.getOrCreate('agent:main:a', { label: 'research' });
      await ctx.store.getOrCreate('agent:main:b');
      const err = await asHttp(ctx.store.setLabel('agent:main:b', 'research')).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 409, detail: expect.stringContaining('agent:main:a') });
      await expect(asHttp(ctx.store.getOrCreate('agent:main:c', { label: 'research' }))).rejects.toMatchObject({ status: 409 });
      expect(await ctx.store.get('agent:main:c')).toBeUndefined();
      await expect(ctx.store.getOrCreate('agent:ops:a', { label: 'research' })).resolves.toMatchObject({ label: 'research' });
      // Setting the label a session already holds is a no-op, not a conflict.
      await expect(ctx.store.setLabel('agent:main:a', ' research ')).resolves.toMatchObject({ label: 'research' });
    });

    it('checks length 1..512 (400) and answers 404 for an unknown session', async () => {
      await ctx.store.getOrCreate('agent:main:a');
      await expect(asHttp(ctx.store.setLabel('agent:main:a', '   '))).rejects.toMatchObject({ status: 400 });
      await expect(asHttp(ctx.store.setLabel('agent:main:a', 'x'.repeat(513)))).rejects.toMatchObject({ status: 400 });
      await expect(ctx.store.setLabel('agent:main:a', 'x'.repeat(512))).resolves.toMatchObject({ label: 'x'.repeat(512) });
      await expect(asHttp(ctx.store.setLabel('agent:main:nope', 'y'))).rejects.toMatchObject({ status: 404 });
    });

    it('lets exactly one of two concurrent claims win', async () => {
      await ctx.store.getOrCreate('agent:main:a');
      await ctx.store.getOrCreate('agent:main:b');
      const results = await Promise.allSettled([ctx.store.setLabel('agent:main:a', 'x'), ctx.store.setLabel('agent:main:b', 'x')]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'CONFLICT' } });
    });

    it('resolveLabel finds the holder, follows relabels and survives a restart', async () => {
      await ctx.store.getOrCreate('agent:main:a', { label: 'first' });
      expect(await ctx.store.resolveLabel('main', 'first')).toBe('agent:main:a');
      expect(await ctx.store.resolveLabel('ops', 'first')).toBeUndefined();
      expect(await ctx.store.resolveLabel('main', 'x'.repeat(600))).toBeUndefined();
      await ctx.store.setLabel('agent:main:a', 'second');
      expect(await ctx.store.resolveLabel('main', 'first')).toBeUndefined();
      await ctx.store.getOrCreate('agent:main:b', { label: 'first' });
      const fresh = await reopen();
      expect(await fresh.resolveLabel('MAIN', 'second')).toBe('agent:main:a');
      expect(await fresh.resolveLabel('main', 'first')).toBe('agent:main:b');
    });
  });

  describe('isSpawnedBy', () => {
    beforeEach(async () => {
      await ctx.store.getOrCreate('agent:main:main');
      await ctx.store.getOrCreate('agent:main:subagent:child', { spawnedBy: 'agent:main:main' });
      await ctx.store.getOrCreate('agent:main:subagent:grandchild', { spawnedBy: 'agent:main:subagent:child' });
      await ctx.store.getOrCreate('agent:main:other');
    });

    it('is true for direct and transitive ancestors', async () => {
      expect(await ctx.store.isSpawnedBy('agent:main:subagent:child', 'agent:main:main')).toBe(true);
      expect(await ctx.store.isSpawnedBy('agent:main:subagent:grandchild', 'agent:main:main')).toBe(true);
    });

    it('is false for unrelated sessions, descendants, itself and unknown keys', async () => {
      expect(await ctx.store.isSpawnedBy('agent:main:subagent:child', 'agent:main:other')).toBe(false);
      expect(await ctx.store.isSpawnedBy('agent:main:main', 'agent:main:subagent:child')).toBe(false);
      expect(await ctx.store.isSpawnedBy('agent:main:main', 'agent:main:main')).toBe(false);
      expect(await ctx.store.isSpawnedBy('agent:main:nope', 'agent:main:main')).toBe(false);
    });

    it('terminates on a spawnedBy cycle written by an older gateway', async () => {
      const t = new Date().toISOString();
      const entry = (k: string, parent: string): SessionEntry => ({
        sessionKey: k,
        sessionId: k.split(':')[2],
        agentId: 'ops',
        spawnedBy: parent,
        createdAt: t,
        updatedAt: t,
      });
      await ctx.fixture.seed([entry('agent:ops:a', 'agent:ops:b'), entry('agent:ops:b', 'agent:ops:a')]);
      const restarted = await reopen();
      expect(await restarted.isSpawnedBy('agent:ops:a', 'agent:ops:zzz')).toBe(false);
      expect(await restarted.isSpawnedBy('agent:ops:a', 'agent:ops:b')).toBe(true);
    });
  });

  describe('pages', () => {
    it('walks every session once, newest first, while new sessions keep arriving', async () => {
      for (let i = 0; i < 45; i++) await ctx.store.getOrCreate(`agent:${i % 2 ? 'main' : 'ops'}:s${i}`);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await ctx.store.page({ limit: 10, cursor });
        seen.push(...page.sessions.map((e) => e.sessionKey));
        // Created between pages: newer than every cursor, so never part of the walk.
        await ctx.store.getOrCreate(`agent:main:late${pages}`);
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(5);
      expect(seen).toHaveLength(45);
      expect(new Set(seen).size).toBe(45);
      expect(seen[0]).toBe('agent:ops:s44');
    });

    it('pages within one agent and refuses a cursor it did not issue', async () => {
      for (let i = 0; i < 5; i++) await ctx.store.getOrCreate(`agent:main:p${i}`);
      await ctx.store.getOrCreate('agent:ops:other');
      const first = await ctx.store.page({ agentId: 'main', limit: 3 });
      const second = await ctx.store.page({ agentId: 'main', limit: 3, cursor: first.nextCursor });
      expect([...first.sessions, ...second.sessions].map((e) => e.sessionKey)).toEqual([
        'agent:main:p4',
        'agent:main:p3',
        'agent:main:p2',
        'agent:main:p1',
        'agent:main:p0',
      ]);
      expect(second.nextCursor).toBeUndefined();
      for (const bad of ['nope', Buffer.from('1.x').toString('base64url'), '']) {
        await expect(asHttp(ctx.store.page({ cursor: bad }))).rejects.toMatchObject({
          status: 400,
          detail: expect.stringContaining('cursor'),
        });
      }
    });
  });
}
