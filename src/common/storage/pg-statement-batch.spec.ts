import { PgStatementBatch } from './pg-statement-batch';

/** A statement the test completes by hand, so what is on its way is under the test's control. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const sqlError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('PgStatementBatch (group commit for PostgreSQL)', () => {
  it('sends the writes of one turn as one statement and answers each its own result', async () => {
    const many = jest.fn(async (items: readonly number[]) => items.map((n) => n * 10));
    const one = jest.fn(async (n: number) => n * 10);
    const batch = new PgStatementBatch({ many, one });
    await expect(Promise.all([1, 2, 3].map((n) => batch.submit(n)))).resolves.toEqual([10, 20, 30]);
    expect(many).toHaveBeenCalledTimes(1);
    expect(many).toHaveBeenCalledWith([1, 2, 3]);
    expect(one).not.toHaveBeenCalled();
  });

  it('sends a write alone as the single statement, without waiting for anything else', async () => {
    const many = jest.fn(async (items: readonly string[]) => [...items]);
    const one = jest.fn(async (s: string) => `${s}!`);
    const batch = new PgStatementBatch({ many, one });
    await expect(batch.submit('a')).resolves.toBe('a!');
    expect(many).not.toHaveBeenCalled();
  });

  it('holds the writes made while a batch is on its way and sends them together after it', async () => {
    const first = deferred<number[]>();
    const sent: number[][] = [];
    const many = jest.fn((items: readonly number[]) => {
      sent.push([...items]);
      return sent.length === 1 ? first.promise : Promise.resolve([...items]);
    });
    const batch = new PgStatementBatch({ many, one: async (n: number) => n });
    const a = [batch.submit(1), batch.submit(2)];
    await new Promise((r) => setImmediate(r));
    const b = [batch.submit(3), batch.submit(4), batch.submit(5)];
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([[1, 2]]);
    first.resolve([1, 2]);
    await expect(Promise.all([...a, ...b])).resolves.toEqual([1, 2, 3, 4, 5]);
    expect(sent).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('sends each write of a batch the server refused on its own, so only the bad one fails', async () => {
    const many = jest.fn(async () => {
      throw sqlError('23505', 'duplicate key value violates unique constraint "tasks_id_key"');
    });
    const one = jest.fn(async (id: string) => {
      if (id === 'dup') throw sqlError('23505', 'duplicate key value violates unique constraint "tasks_id_key"');
      return id;
    });
    const batch = new PgStatementBatch({ many, one });
    const results = await Promise.allSettled(['a', 'dup', 'c'].map((id) => batch.submit(id)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(/duplicate key/);
    expect(one.mock.calls.map(([id]) => id)).toEqual(['a', 'dup', 'c']);
  });

  it('fails every write of a batch whose connection broke, sending none again (it may have committed)', async () => {
    const many = jest.fn(async () => {
      throw new Error('Connection terminated unexpectedly');
    });
    const one = jest.fn(async (n: number) => n);
    const batch = new PgStatementBatch({ many, one });
    const results = await Promise.allSettled([1, 2].map((n) => batch.submit(n)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(one).not.toHaveBeenCalled();
  });

  it('sends at most maxItems writes per statement', async () => {
    const many = jest.fn(async (items: readonly number[]) => [...items]);
    const batch = new PgStatementBatch({ many, one: async (n: number) => n, maxItems: 2 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => batch.submit(n)));
    expect(many.mock.calls.map(([items]) => items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('tells when nothing is queued or on its way', async () => {
    const first = deferred<number[]>();
    const batch = new PgStatementBatch({ many: () => first.promise, one: async (n: number) => n });
    await expect(batch.drained()).resolves.toBeUndefined();
    const writes = Promise.all([batch.submit(1), batch.submit(2)]);
    let drained = false;
    const waiting = batch.drained().then(() => (drained = true));
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    first.resolve([1, 2]);
    await writes;
    await waiting;
    expect(drained).toBe(true);
  });
});
