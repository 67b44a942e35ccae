import { Logger } from '@nestjs/common';
import type { FannedTaskEvent, RemoteTaskEventListener, TaskEventFanout } from '../../../common/coordination/task-event-fanout';
import { TaskEventBus } from '../streaming/task-event-bus';
import { sharedTaskEvents } from './shared-task-events';

const event = (taskId: string, n: number): FannedTaskEvent => ({ taskId, n, body: `{"n":${n}}`, closes: false });

/** The other replicas, as the fan-out port shows them: what was published, and who subscribed. */
function replicas(everyReplicaMarks = true) {
  const published: string[] = [];
  const subscribed: string[] = [];
  const fanout = {
    publish: (events: readonly FannedTaskEvent[]) => published.push(...events.map((e) => `${e.taskId}#${e.n}`)),
    subscribe: (taskId: string, _listener: RemoteTaskEventListener) => {
      subscribed.push(taskId);
      return { ready: Promise.resolve(), stop: () => undefined };
    },
    everyReplicaMarksFollows: () => everyReplicaMarks,
  } as unknown as TaskEventFanout;
  return { fanout, published, subscribed };
}

describe('sharedTaskEvents (a cluster over a shared store)', () => {
  it('publishes to the other replicas only the events of tasks a stream follows; this replica’s streams hear all', () => {
    const { fanout, published } = replicas();
    const bus = new TaskEventBus();
    const sink = sharedTaskEvents(
      bus,
      () => fanout,
      async () => undefined,
    );
    const heard: string[] = [];
    for (const id of ['quiet', 'watched']) bus.listen(id, { event: (e) => heard.push(`${e.taskId}#${e.n}`), ended: () => undefined });
    sink([event('quiet', 1), event('watched', 1)], new Set(['quiet']));
    sink([event('quiet', 2)], new Set(['quiet']));
    sink([event('unknown', 1)]);
    expect(published).toEqual(['watched#1', 'unknown#1']);
    expect(heard).toEqual(['quiet#1', 'watched#1', 'quiet#2']);
  });

  it('publishes every event while a replica that does not mark the tasks it follows may be up (an earlier version)', () => {
    const { fanout, published } = replicas(false);
    const sink = sharedTaskEvents(
      new TaskEventBus(),
      () => fanout,
      async () => undefined,
    );
    sink([event('quiet', 1), event('watched', 1)], new Set(['quiet']));
    expect(published).toEqual(['quiet#1', 'watched#1']);
  });

  it('marks a task followed when its first stream here listens, and is ready only once the mark is committed', async () => {
    const { fanout, subscribed } = replicas();
    const bus = new TaskEventBus();
    let commit!: () => void;
    const marked: string[] = [];
    sharedTaskEvents(
      bus,
      () => fanout,
      (id) => new Promise<void>((resolve) => (marked.push(id), (commit = resolve))),
    );
    bus.listen('t-1', { event: () => undefined, ended: () => undefined });
    bus.listen('t-1', { event: () => undefined, ended: () => undefined });
    expect([marked, subscribed]).toEqual([['t-1'], ['t-1']]);
    let ready = false;
    void bus.ready('t-1')!.then(() => (ready = true));
    await new Promise((r) => setImmediate(r));
    expect(ready).toBe(false);
    commit();
    await bus.ready('t-1');
    expect(ready).toBe(true);
  });

  it('marks again a task whose mark failed, and has its streams read the store once it is made', async () => {
    const { fanout } = replicas();
    const bus = new TaskEventBus();
    const warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    let attempts = 0;
    let resynced!: () => void;
    const resync = new Promise<void>((resolve) => (resynced = resolve));
    sharedTaskEvents(
      bus,
      () => fanout,
      async () => {
        if (attempts++ === 0) throw new Error('connection refused');
      },
    );
    bus.listen('t-2', { event: () => undefined, ended: () => undefined, resync: resynced });
    await bus.ready('t-2');
    expect(attempts).toBe(1);
    await resync;
    expect(attempts).toBe(2);
    expect(warned).toHaveBeenCalledTimes(1);
    warned.mockRestore();
  });
});
