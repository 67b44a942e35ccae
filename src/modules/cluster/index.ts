export { ClusterModule } from './cluster.module';
export { ClusterService } from './cluster.service';
export type { ClusterCounters, ClusterMode, ClusterStatus, OwnedTaskCounter, OwningReplica, RedisHealth } from './cluster.service';
export { LapsedOwnerSweep, OWNER_MISSING_CONFIRM_MS, OWNER_SWEEP_INTERVAL_MS } from './lapsed-owner-sweep';
export type { LapsedOwnerSweepOptions, LeasedWork } from './lapsed-owner-sweep';
export { ClusterRedisUnreachableError } from './redis-connection';
export type { ReplicaInfo } from './replica-registry';
