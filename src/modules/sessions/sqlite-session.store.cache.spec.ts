import { tempSessionEnv, TempSessionEnv } from '../../../test/support/temp-session-env';
import { SqliteSessionStore } from './sqlite-session.store';

/**
 * What the SQLite store answers from memory: the cached tails agree with the rows a restarted store reads, and a
 * damaged row never makes a cached tail look shorter than the transcript. (The rest is the contract suite.)
 */
describe('SqliteSessionStore caches', () => {
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
});
