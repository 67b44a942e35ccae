import { storeFor } from './store-for';

/** Lets every pending promise callback run (a few turns of the microtask queue and one of the event loop). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('storeFor', () => {
  it('makes only the store gateway.state names', async () => {
    const made: string[] = [];
    const backends = {
      sqlite: () => (made.push('sqlite'), 'file store'),
      postgres: async (url: string) => (made.push(`postgres ${url}`), 'shared store'),
    };
    await expect(storeFor({ backend: 'sqlite' }, backends)).resolves.toBe('file store');
    await expect(storeFor({ backend: 'postgres', url: 'postgres://db/x' }, backends)).resolves.toBe('shared store');
    expect(made).toEqual(['sqlite', 'postgres postgres://db/x']);
  });

  it('opens PostgreSQL stores one at a time, in the order asked: the next waits for the one before, failed or not', async () => {
    const state = { backend: 'postgres' as const, url: 'postgres://db/x' };
    const sessions = deferred<string>();
    const tasks = deferred<string>();
    const asked: string[] = [];
    const first = storeFor(state, { sqlite: () => 'x', postgres: () => (asked.push('sessions'), sessions.promise) });
    const second = storeFor(state, { sqlite: () => 'x', postgres: () => (asked.push('tasks'), tasks.promise) });
    const third = storeFor(state, { sqlite: () => 'x', postgres: async () => (asked.push('history'), 'history store') });
    await settle();
    expect(asked).toEqual(['sessions']);

    sessions.reject(new Error('the session store could not start'));
    await expect(first).rejects.toThrow('the session store could not start');
    await settle();
    expect(asked).toEqual(['sessions', 'tasks']);

    tasks.resolve('task store');
    await expect(second).resolves.toBe('task store');
    await expect(third).resolves.toBe('history store');
    expect(asked).toEqual(['sessions', 'tasks', 'history']);
  });

  it('makes a SQLite store at once, whatever PostgreSQL store is still opening', async () => {
    const pending = deferred<string>();
    const opening = storeFor({ backend: 'postgres', url: 'postgres://db/x' }, { sqlite: () => 'x', postgres: () => pending.promise });
    await expect(storeFor({ backend: 'sqlite' }, { sqlite: () => 'file store', postgres: async () => 'never' })).resolves.toBe(
      'file store',
    );
    pending.resolve('shared store');
    await expect(opening).resolves.toBe('shared store');
  });
});
