import type { RemoteTaskEventListener, TaskEventFanout } from '../../../common/coordination/task-event-fanout';
import { TaskEventBus } from './task-event-bus';
import { type StreamItem, TaskEventStream } from './task-event-stream';
import type { TaskEvent } from '../model/task-events';

const TASK = 'task-1';
const event = (n: number, closes = false): TaskEvent => ({ taskId: TASK, n, body: `{"n":${n}}`, closes });

/** The task's stored events, read as the store would (after a number), and what a stream sent. */
function harness(stored: TaskEvent[], bus = new TaskEventBus()) {
  const reads: number[] = [];
  const replay = (_: string, after: number) => {
    reads.push(after);
    return Promise.resolve(stored.filter((e) => e.n > after));
  };
  const items: StreamItem[] = [];
  let ended = false;
  const stream = new TaskEventStream({ taskId: TASK, after: 0, closedAtOpen: false }, bus, replay);
  stream.pipe({
    item: (item) => items.push(item),
    end: () => (ended = true),
    fail: (e) => {
      throw e;
    },
  });
  return { bus, reads, ids: () => items.map((i) => i.id), ended: () => ended };
}

const settle = () => new Promise((r) => setImmediate(r));

/** A fan-out whose other replicas the spec plays: it hands the subscriptions' listeners to the spec. */
function replicas(): TaskEventFanout & { listeners: Map<string, RemoteTaskEventListener>; stopped: string[] } {
  const listeners = new Map<string, RemoteTaskEventListener>();
  const stopped: string[] = [];
  return {
    listeners,
    stopped,
    publish: () => undefined,
    subscribe: (taskId, listener) => {
      listeners.set(taskId, listener);
      return { ready: Promise.resolve(), stop: () => stopped.push(taskId) };
    },
    requestCancel: () => Promise.resolve(false),
    serveCancels: () => () => undefined,
    forwardInput: () => Promise.resolve({ unanswered: 'no-owner' }),
    serveInputs: () => () => undefined,
  };
}

describe('TaskEventStream', () => {
  it('in one process: the store once, then live events in order; a repeated one is not sent again', async () => {
    const stored = [event(1), event(2)];
    const h = harness(stored);
    await settle();
    h.bus.publish([event(2), event(3), event(3), event(4, true)]);
    expect([h.reads, h.ids(), h.ended()]).toEqual([[0], [1, 2, 3, 4], true]);
  });

  it('a live event after a gap (one lost between replicas) has the store read from the last one sent, then goes on', async () => {
    const stored = [event(1)];
    const h = harness(stored);
    await settle();
    stored.push(event(2), event(3));
    h.bus.publish([event(3)]);
    h.bus.publish([event(4)]); // heard while the store is read: kept, sent after it
    await settle();
    stored.push(event(4), event(5, true));
    h.bus.publish([event(5, true)]);
    expect([h.reads, h.ids(), h.ended()]).toEqual([[0, 1], [1, 2, 3, 4, 5], true]);
  });

  it('a resync (the connection to the other replicas was interrupted) reads the store again and sends only what is new', async () => {
    const fanout = replicas();
    const bus = new TaskEventBus();
    bus.connect(() => fanout);
    const stored = [event(1)];
    const h = harness(stored, bus);
    await settle();
    stored.push(event(2), event(3, true));
    fanout.listeners.get(TASK)!.resync();
    await settle();
    expect([h.reads, h.ids(), h.ended()]).toEqual([[0, 1], [1, 2, 3], true]);
    // The last stream of the task is gone: so is the subscription.
    expect(fanout.stopped).toEqual([TASK]);
  });
});

describe('TaskEventBus with other replicas', () => {
  it('subscribes once per task however many streams listen, hears their events as its own, and stops with the last stream', async () => {
    const fanout = replicas();
    const bus = new TaskEventBus();
    expect(bus.ready(TASK)).toBeUndefined();
    bus.connect(() => fanout);
    const heard: number[] = [];
    const stops = [1, 2].map(() => bus.listen(TASK, { event: (e) => heard.push(e.n), ended: () => undefined }));
    await expect(bus.ready(TASK)).resolves.toBeUndefined();
    fanout.listeners.get(TASK)!.events([event(7)]);
    expect(heard).toEqual([7, 7]);
    stops[0]();
    expect(fanout.stopped).toEqual([]);
    stops[1]();
    expect([fanout.stopped, bus.ready(TASK), bus.listenedTasks]).toEqual([[TASK], undefined, 0]);
  });
});
