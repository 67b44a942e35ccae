export { A2aChannelModule } from './a2a-channel.module';
export { mountA2aEndpoint } from './mount-a2a';
export { A2aTaskCounts } from './a2a-task-counts';
export { reachableAgents } from './a2a-session-route';
export type { RouteLookup } from './a2a-session-route';
export type { PeerAgentCount } from './task-store.port';
