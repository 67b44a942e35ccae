import { IsDefined, IsOptional, IsString, MinLength } from 'class-validator';
import { Describe, IsRedisUrl, NestedObject, NoUrlCredentials, StrictObject } from './schema-decorators';

@StrictObject('The Redis server the replicas coordinate through (docs/deploy.md#cluster-coordination). Restart needed.')
export class ClusterRedisConfig {
  @IsDefined()
  @IsString()
  @NoUrlCredentials('put the password in gateway.cluster.redis.password (a secret: redacted and masked)')
  @IsRedisUrl()
  @Describe('redis://host:port[/db] or rediss://host:port[/db] (TLS). Use ${REDIS_URL}. Restart needed.')
  url!: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @Describe('Password of the Redis server (AUTH). Use ${VAR}. Restart needed.')
  password?: string;
}

@StrictObject(
  'Several gateway replicas coordinated through Redis: shared A2A rate limits, replica membership. Absent: one process on its own. Restart needed.',
)
export class GatewayClusterConfig {
  @IsDefined()
  @NestedObject(() => ClusterRedisConfig)
  redis!: ClusterRedisConfig;
}
