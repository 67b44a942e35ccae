export { ClusterModule } from './cluster.module';
export { ClusterService } from './cluster.service';
export type { ClusterCounters, ClusterMode, ClusterStatus, OwnedTaskCounter, OwningReplica, RedisHealth } from './cluster.service';
export { ClusterRedisUnreachableError } from './redis-connection';
export type { ReplicaInfo } from './replica-registry';
