import { tempSessionEnv, TempSessionEnv } from '../../../test/support/temp-session-env';
import { SqliteSessionStore } from './sqlite-session.store';

/**
 * What the store answers from memory and what it commits: the cached tails agree with the rows a restarted
 * store reads, a read after a pending write waits for it, a damaged row is reported (and never cached as a
 * short tail), and one failing write of a batch is rolled back alone.
 */
describe('SqliteSessionStore caches and commits', () => {
  let env: TempSessionEnv;
  let store: SqliteSessionStore;
  beforeEach(async () => {
    env = await tempSessionEnv(['main', 'ops']);
    store = env.newStore();
  });
  afterEach(async () => {
    await env.cleanup();
  });

  describe('in-memory tails', () => {
    it('answers history from memory with exactly what a restarted store reads from disk', async () => {
      const key = 'agent:main:tail';
      for (let i = 0; i < 150; i++) {
        await store.append(key, { role: i % 3 === 2 ? 'tool' : i % 3 === 0 ? 'user' : 'assistant', text: `t${i}` });
      }
      const restarted = env.newStore();
      for (const options of [{ limit: 1 }, { limit: 40 }, { limit: 64 }, { limit: 100 }, {}, { limit: 40, includeTools: false }]) {
        expect((await store.history(key, options)).lines).toEqual((await restarted.history(key, options)).lines);
      }
    });

    it('knows a new session is empty, and sees each line as soon as its append resolves', async () => {
      const key = 'agent:main:fresh';
      await store.getOrCreate(key);
      expect((await store.history(key, { limit: 40 })).lines).toEqual([]);
      const pending = store.append(key, { role: 'user', text: 'hi' });
      // Read-your-writes: a history requested after an append waits for it.
      expect((await store.history(key, { limit: 40 })).lines.map((l) => l.text)).toEqual(['hi']);
      await pending;
    });
  });

  it('keeps only a bounded tail of large lines in memory and reads the rest from disk, unchanged', async () => {
    const key = 'agent:main:big';
    const big = 'x'.repeat(20_000);
    for (let i = 0; i < 10; i++) await store.append(key, { role: 'user', text: `${i}:${big}` });
    const fromStore = await store.history(key, { limit: 10 });
    expect(fromStore.lines.map((l) => l.text.slice(0, 2))).toEqual(['0:', '1:', '2:', '3:', '4:', '5:', '6:', '7:', '8:', '9:']);
    expect(fromStore.lines).toEqual((await env.newStore().history(key, { limit: 10 })).lines);
  });

  it('never caches a tail that a damaged row made look shorter than the transcript', async () => {
    const key = 'agent:main:damaged';
    for (let i = 0; i < 10; i++) await store.append(key, { role: 'user', text: `l${i}` });
    env.damageLastLine('{"torn');
    const restarted = env.newStore();
    expect((await restarted.history(key, { limit: 5 })).lines.map((l) => l.text)).toEqual(['l5', 'l6', 'l7', 'l8']);
    expect((await restarted.history(key, { limit: 8 })).lines.map((l) => l.text)).toEqual(['l2', 'l3', 'l4', 'l5', 'l6', 'l7', 'l8']);
    expect((await restarted.history(key)).lines).toHaveLength(9);
  });

  it('answers in call order while a write of the same session is pending', async () => {
    await store.getOrCreate('agent:main:order', { label: 'A' });
    const relabel = store.setLabel('agent:main:order', 'B');
    const after = store.getOrCreate('agent:main:order');
    await relabel;
    expect((await after).label).toBe('B');
    // A session whose creating append is still pending exists for a get() made after it.
    const appended = store.append('agent:main:brand-new', { role: 'user', text: 'hi' });
    expect(await store.get('agent:main:brand-new')).toMatchObject({ sessionKey: 'agent:main:brand-new' });
    await appended;
  });

  it('reports a transcript row damaged by hand as a warning and still serves the good lines', async () => {
    await store.append('agent:ops:torn', { role: 'user', text: 'intact' });
    await store.append('agent:ops:torn', { role: 'assistant', text: 'to be damaged' });
    const id = env.damageLastLine('{"id":"x","role":"us');
    // A restarted store has no cached tail: the history comes from the rows.
    const restarted = await env.newStore().history('agent:ops:torn', { limit: 10 });
    expect(restarted.lines.map((l) => l.text)).toEqual(['intact']);
    expect(restarted.warnings).toEqual([`transcript row ${id} is not valid JSON; skipped`]);
  });

  describe('group commit', () => {
    it('rolls back a failing write alone; the rest of its batch commits', async () => {
      await store.getOrCreate('agent:main:holder', { label: 'taken' });
      const results = await Promise.allSettled([
        store.append('agent:main:x', { role: 'user', text: 'kept 1' }),
        store.getOrCreate('agent:main:y', { label: 'taken' }),
        store.append('agent:main:x', { role: 'user', text: 'kept 2' }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const restarted = env.newStore();
      expect(await restarted.get('agent:main:y')).toBeUndefined();
      expect((await restarted.history('agent:main:x')).lines.map((l) => l.text)).toEqual(['kept 1', 'kept 2']);
    });
  });
});
