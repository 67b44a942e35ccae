export { MetricsModule } from './metrics.module';
export { AuthRefusals } from './auth-refusals';
export {
  GatewayMetrics,
  type A2aBinding,
  type AuthEdge,
  type AuthRefusalReason,
  type McpCallOutcome,
  type MemoryIndexStats,
  type MetricsView,
  type RateLimitedChannel,
  type RunOutcome,
} from './gateway-metrics';
export type { ClusterCounts } from './cluster-metrics';
