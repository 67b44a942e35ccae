import { Global, Module } from '@nestjs/common';
import { GatewayMetrics } from './gateway-metrics';

/** Global: every module records into the one registry without importing this module. */
@Global()
@Module({ providers: [GatewayMetrics], exports: [GatewayMetrics] })
export class MetricsModule {}
