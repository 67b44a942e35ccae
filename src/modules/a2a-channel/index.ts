export { A2aChannelModule } from './a2a-channel.module';
export { mountA2aEndpoint } from './bindings/mount-a2a';
export { A2aTaskCounts } from './store/task-counts';
export { reachableAgents } from './tasks/session-route';
export type { RouteLookup } from './tasks/session-route';
export { TASK_STORE } from './store/task-store.port';
export type { PeerAgentCount, TaskStore } from './store/task-store.port';
