import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { USAGE_BUCKETS, USAGE_GROUPS } from '../usage-store.port';

export class UsageGroupDto {
  @ApiProperty({
    example: 'main',
    description:
      'The agent id, session key, A2A peer name, `<channel>:<key name>` (openai, mcp), `<channel>:<account>` or `provider/model`.',
  })
  group!: string;
  @ApiPropertyOptional({ example: '2026-12-07T02:00:00.000Z', description: 'The bucket’s start (UTC), when ?bucket= was given.' })
  bucket?: string;
  @ApiProperty({ example: 3, description: 'Model calls that reported usage.' }) calls!: number;
  @ApiProperty({ example: 1200, description: 'Prompt tokens, the cached ones included.' }) inputTokens!: number;
  @ApiProperty({ example: 340 }) outputTokens!: number;
  @ApiProperty({ example: 800, description: 'The part of inputTokens the provider read from its prompt cache.' }) cachedTokens!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.0042,
    description: 'What the priced calls cost (the models’ cost entries, per million tokens); null when none was priced.',
  })
  cost!: number | null;
  @ApiProperty({ example: 0, description: 'Calls whose model has no price: their tokens count, their cost does not.' })
  unpricedCalls!: number;
}

export class UsagePageDto {
  @ApiProperty({ enum: USAGE_GROUPS }) groupBy!: string;
  @ApiPropertyOptional({ enum: USAGE_BUCKETS }) bucket?: string;
  @ApiProperty({ example: '2026-12-06T02:00:00.000Z', description: 'The window’s start (inclusive).' }) from!: string;
  @ApiProperty({ example: '2026-12-07T02:00:00.000Z', description: 'The window’s end (exclusive).' }) to!: string;
  @ApiProperty({ type: [UsageGroupDto], description: 'Ordered by bucket, then group.' }) items!: UsageGroupDto[];
  @ApiPropertyOptional({ example: 'MTAw', description: 'Pass as ?cursor= for the next page; absent on the last page.' })
  nextCursor?: string;
}
