import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { ClusterService, ClusterStatus } from './cluster.service';

class ReplicaDto {
  @ApiProperty({ example: 'gw-a-4711-3fa2c1' }) id!: string;
  @ApiProperty({ example: '0.1.0' }) version!: string;
  @ApiProperty({ example: 4711 }) pid!: number;
  @ApiProperty({ example: 'gw-a' }) host!: string;
  @ApiProperty({ example: '2026-01-01T12:00:00.000Z' }) startedAt!: string;
  @ApiProperty({ description: 'The config revision the replica serves.', example: '3f9a1c2b7d10' }) configRevision!: string;
  @ApiProperty({ description: 'Its last heartbeat.', example: '2026-01-01T12:05:02.000Z' }) heartbeatAt!: string;
  @ApiPropertyOptional({
    description: 'Unsettled A2A tasks (each one run) this replica owns; only while tasks are in PostgreSQL (gateway.state).',
    example: 3,
  })
  ownedTasks?: number;
}

class RedisHealthDto {
  @ApiProperty({ description: 'host:port of the Redis server (never a credential).', example: 'redis.internal:6379' }) address!: string;
  @ApiProperty() reachable!: boolean;
  @ApiPropertyOptional({ description: 'Why it is unreachable.' }) error?: string;
}

class ClusterStatusDto {
  @ApiProperty({ enum: ['single', 'cluster'] }) mode!: 'single' | 'cluster';
  @ApiProperty({ description: 'The id of the replica that answered.' }) self!: string;
  @ApiPropertyOptional({ type: RedisHealthDto, description: 'Cluster mode only.' }) redis?: RedisHealthDto;
  @ApiProperty({
    type: [ReplicaDto],
    description: 'Live replicas (heartbeat within the TTL), oldest first. Single mode, or Redis unreachable: the answering replica alone.',
  })
  replicas!: ReplicaDto[];
}

@ApiTags('cluster')
@Controller('admin/cluster')
export class ClusterController {
  constructor(private readonly cluster: ClusterService) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'The replicas of this gateway and the health of their Redis',
    description: 'Without gateway.cluster: `{ mode: "single", replicas: [this process] }`. See docs/deploy.md#cluster-coordination.',
  })
  @ApiOkResponse({ type: ClusterStatusDto, description: 'The live replicas (this one in single mode) and the Redis status.' })
  status(): Promise<ClusterStatus> {
    return this.cluster.status();
  }
}
