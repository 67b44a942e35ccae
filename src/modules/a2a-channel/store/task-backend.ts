import type { PushKeyStore } from './push-key-store.port';
import type { PushStore } from './push-store.port';
import type { TaskStore } from './task-store.port';

/**
 * The A2A stores of the backend `gateway.state` names (read once at start: a change takes effect at a restart), made by
 * one factory (a2a-channel.module.ts): the tasks, the push configs and outbox written in the same database (in the
 * tasks' own transactions), and, for a backend replicas share, the push signing key kept there. TASK_STORE and
 * PUSH_STORE are its parts.
 */
export interface TaskBackendStores {
  tasks: TaskStore;
  push: PushStore;
  /** Replicas sharing the backend sign pushes with one key kept here; absent: the state dir's key file. */
  pushKey?: PushKeyStore;
}

/** Injection token of the module's TaskBackendStores. */
export const TASK_BACKEND_STORES = Symbol('A2A_TASK_BACKEND_STORES');
