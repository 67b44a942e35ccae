import { tempSessionEnv, TempSessionEnv } from '../../../test/support/temp-session-env';
import { SqliteSessionStore } from './sqlite-session.store';

/**
 * An append that creates its session (a run's first line): the same session getOrCreate would make, in
 * the same commit as the line, and nothing written when the creation is refused.
 */
describe('SqliteSessionStore append with creation options', () => {
  let env: TempSessionEnv;
  let store: SqliteSessionStore;
  const deliveryContext = { channel: 'a2a', accountId: 'default', to: 'peer:ctx-1' };
  beforeEach(async () => {
    env = await tempSessionEnv(['main']);
    store = env.newStore();
  });
  afterEach(async () => {
    await env.cleanup();
  });

  it('creates the session with its options and the line, and a restarted store reads both', async () => {
    const line = await store.append('agent:main:a2a:one', { role: 'user', text: 'hi' }, { deliveryContext, label: 'first' });
    const entry = await env.newStore().get('agent:main:a2a:one');
    expect(entry).toMatchObject({ deliveryContext, label: 'first' });
    expect((await env.newStore().history('agent:main:a2a:one')).lines).toEqual([line]);
    expect(await store.get('agent:main:a2a:one')).toEqual(entry);
  });

  it('updates an existing session as getOrCreate would: a new delivery context replaces the stored one', async () => {
    await store.getOrCreate('agent:main:a2a:two', { deliveryContext });
    const moved = { ...deliveryContext, to: 'peer:ctx-2' };
    await store.append('agent:main:a2a:two', { role: 'user', text: 'again' }, { deliveryContext: moved });
    expect((await env.newStore().get('agent:main:a2a:two'))?.deliveryContext).toEqual(moved);
    expect((await store.get('agent:main:a2a:two'))?.deliveryContext).toEqual(moved);
  });

  it('refuses a label another session holds (409) and writes neither the session nor the line', async () => {
    await store.getOrCreate('agent:main:holder', { label: 'taken' });
    await expect(store.append('agent:main:newcomer', { role: 'user', text: 'hi' }, { label: 'taken' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('agent:main:holder'),
    });
    expect(await env.newStore().get('agent:main:newcomer')).toBeUndefined();
    expect(await store.get('agent:main:newcomer')).toBeUndefined();
  });

  it('rejects bad creation options before writing anything (400 naming the field)', async () => {
    await expect(
      store.append('agent:main:bad', { role: 'user', text: 'hi' }, { deliveryContext: { to: 7 } as never }),
    ).rejects.toMatchObject({ message: 'deliveryContext.to must be a string' });
    await expect(store.append('agent:main:bad', { role: 'user', text: 'hi' }, { spawnedBy: 'agent:main:bad' })).rejects.toMatchObject({
      message: 'a session cannot be spawned by itself',
    });
    expect(await store.get('agent:main:bad')).toBeUndefined();
  });
});
