import type { TaskEventFanout } from '../../../common/coordination/task-event-fanout';
import type { TaskEventBus } from '../streaming/task-event-bus';
import type { TaskEvent } from '../model/task-events';

/**
 * Where a shared (PostgreSQL) store's committed events go: this replica's streams, and — in a cluster — the other
 * replicas' streams through the fan-out, whose events in turn reach the bus. `fanout` is asked at each use: the store
 * opens before the cluster is joined; without a cluster it answers undefined and only the bus hears the events.
 * `follow` marks a task in the store before this replica listens for its events from the others; the events of a
 * task nobody marked are not published while every replica marks (none can be listening:
 * docs/decisions.md#task-events-across-replicas).
 */
export function sharedTaskEvents(
  bus: TaskEventBus,
  fanout: () => TaskEventFanout | undefined,
  follow: (taskId: string) => Promise<void>,
): (events: readonly TaskEvent[], unfollowed?: ReadonlySet<string>) => void {
  bus.connect(fanout, follow);
  return (events, unfollowed) => {
    bus.publish(events);
    const remote = fanout();
    if (!remote) return;
    const followed = unfollowed && remote.everyReplicaMarksFollows?.() ? events.filter((e) => !unfollowed.has(e.taskId)) : events;
    if (followed.length) remote.publish(followed);
  };
}
