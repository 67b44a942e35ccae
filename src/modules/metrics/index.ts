export { MetricsModule } from './metrics.module';
export {
  GatewayMetrics,
  type A2aBinding,
  type MemoryIndexStats,
  type MetricsView,
  type RateLimitedChannel,
  type RunOutcome,
} from './gateway-metrics';
export type { ClusterCounts } from './cluster-metrics';
