import { DeferredTaskRows } from './deferred-task-rows';
import type { A2aTask } from '../model/task';
import type { TaskStore } from '../store/task-store.port';

/** A task store that holds each insert until the test lets it commit, as a slow database would. */
function slowStore() {
  const rows = new Map<string, A2aTask>();
  const pending: Array<{ commit: () => void; fail: (e: Error) => void }> = [];
  const store = {
    insert: (task: A2aTask) =>
      new Promise<void>((resolve, reject) =>
        pending.push({
          commit: () => {
            rows.set(task.id, task);
            resolve();
          },
          fail: reject,
        }),
      ),
    get: (id: string) => Promise.resolve(rows.get(id)),
  };
  return { store: store as unknown as TaskStore, pending };
}

const task: A2aTask = {
  id: 't1',
  peer: 'hermes',
  contextId: 'ctx',
  messageId: 'm1',
  state: 'TASK_STATE_WORKING',
  history: [],
  createdAt: 1000,
  updatedAt: 1000,
};
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DeferredTaskRows', () => {
  it('makes a reader of a row the timer is still writing wait for that write, and serves the task meanwhile', async () => {
    const { store, pending } = slowStore();
    const rows = new DeferredTaskRows(store, 5, () => undefined);
    rows.defer(task);
    await tick(30);
    expect(pending).toHaveLength(1); // the timer's insert, not committed yet
    expect(await rows.get('t1')).toMatchObject({ id: 't1' });
    let written: A2aTask | undefined;
    const reading = rows.written('t1').then((t) => (written = t));
    await tick(10);
    expect(written).toBeUndefined();
    expect(pending).toHaveLength(1); // no second insert of the same row
    pending[0].commit();
    await reading;
    expect(written).toMatchObject({ id: 't1', state: 'TASK_STATE_WORKING' });
  });

  it("rejects a reader when the timer's write fails, and reports the lost row once", async () => {
    const { store, pending } = slowStore();
    const lost: string[] = [];
    const rows = new DeferredTaskRows(store, 5, (t, err) => lost.push(`${t.id}: ${err.message}`));
    rows.defer(task);
    await tick(30);
    const reading = rows.written('t1');
    pending[0].fail(new Error('disk full'));
    await expect(reading).rejects.toThrow('disk full');
    expect(lost).toEqual(['t1: disk full']);
  });
});
