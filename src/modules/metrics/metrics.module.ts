import { Global, Module } from '@nestjs/common';
import { AuthRefusals } from './auth-refusals';
import { GatewayMetrics } from './gateway-metrics';

/** Global: every module records into the one registry without importing this module. */
@Global()
@Module({ providers: [GatewayMetrics, AuthRefusals], exports: [GatewayMetrics, AuthRefusals] })
export class MetricsModule {}
