import type { TaskEventFanout } from '../../../common/coordination/task-event-fanout';
import type { TaskEventBus } from '../streaming/task-event-bus';
import type { TaskEvent } from '../model/task-events';

/**
 * Where a shared (PostgreSQL) store's committed events go: this replica's streams, and — in a cluster — the other
 * replicas' streams through the fan-out, whose events in turn reach the bus. `fanout` is asked at each use: the store
 * opens before the cluster is joined; without a cluster it answers undefined and only the bus hears the events.
 */
export function sharedTaskEvents(bus: TaskEventBus, fanout: () => TaskEventFanout | undefined): (events: readonly TaskEvent[]) => void {
  bus.connect(fanout);
  return (events) => {
    bus.publish(events);
    fanout()?.publish(events);
  };
}
