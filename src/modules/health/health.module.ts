import { Module } from '@nestjs/common';
import { ClusterModule } from '../cluster';
import { HealthController } from './health.controller';
import { MetricsService } from './metrics.service';

@Module({ imports: [ClusterModule], controllers: [HealthController], providers: [MetricsService], exports: [MetricsService] })
export class HealthModule {}
