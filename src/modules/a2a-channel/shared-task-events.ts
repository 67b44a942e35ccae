import type { TaskEventFanout } from '../../common/coordination/task-event-fanout';
import type { TaskEventBus } from './task-event-bus';
import type { TaskEvent } from './task-events';

/**
 * Where a shared (PostgreSQL) store's committed events go: this replica's streams, and — in a cluster — the other
 * replicas' streams through the fan-out, whose events in turn reach the bus. Without a cluster it is the bus's own
 * publish, so a single process does nothing more per event.
 */
export function sharedTaskEvents(bus: TaskEventBus, fanout: TaskEventFanout | undefined): (events: readonly TaskEvent[]) => void {
  if (!fanout) return bus.publish;
  bus.connect(fanout);
  return (events) => {
    bus.publish(events);
    fanout.publish(events);
  };
}
