import { Module } from '@nestjs/common';
import { ClusterController } from './cluster.controller';
import { ClusterService } from './cluster.service';

/** Replicas coordinated through Redis (`gateway.cluster`); a single process without it. ConfigStore comes from the global config module. */
@Module({ controllers: [ClusterController], providers: [ClusterService], exports: [ClusterService] })
export class ClusterModule {}
