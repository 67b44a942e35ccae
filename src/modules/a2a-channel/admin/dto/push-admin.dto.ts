import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

export const PUSH_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export const DEFAULT_PUSH_LIST_LIMIT = 50;
export const MAX_PUSH_LIST_LIMIT = 500;

export class ListPushDeliveriesQueryDto {
  @ApiPropertyOptional({ enum: PUSH_DELIVERY_STATES, description: 'Only deliveries in this state.' })
  @IsOptional()
  @IsIn(PUSH_DELIVERY_STATES, { message: `state must be one of ${PUSH_DELIVERY_STATES.join(', ')}` })
  state?: (typeof PUSH_DELIVERY_STATES)[number];

  @ApiPropertyOptional({ example: 50, default: DEFAULT_PUSH_LIST_LIMIT, minimum: 1, maximum: MAX_PUSH_LIST_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_PUSH_LIST_LIMIT)
  limit?: number;
}

export class PushDeliveryDto {
  @ApiProperty({ example: 42, description: 'The delivery (one event to one push config).' }) id!: number;
  @ApiProperty({ example: 'hermes' }) peer!: string;
  @ApiProperty({ example: '0195f2c4-…' }) taskId!: string;
  @ApiProperty({ example: 'c-1', description: "The peer's push config id." }) configId!: string;
  @ApiProperty({
    example: 'https://hooks.example.com/a2a/…',
    description: 'Scheme, host and path; the query is left out (it may carry secrets).',
  })
  url!: string;
  @ApiProperty({ example: 3, description: "The event's number in its task." }) event!: number;
  @ApiProperty({ enum: PUSH_DELIVERY_STATES }) state!: string;
  @ApiProperty({ example: 1 }) attempts!: number;
  @ApiPropertyOptional({ example: '2026-12-01T10:00:04.000Z', description: 'When the next attempt is due (pending only).' })
  nextAttemptAt?: string;
  @ApiPropertyOptional({ example: 'the receiver answered HTTP 500' }) lastError?: string;
  @ApiProperty({ example: '2026-12-01T10:00:00.000Z' }) createdAt!: string;
  @ApiPropertyOptional({ example: '2026-12-01T10:00:07.000Z', description: 'When it was delivered or given up.' }) doneAt?: string;
}

export class PushDeliveryListDto {
  @ApiProperty({ example: { pending: 1, delivered: 10, failed: 0 }, description: 'Every delivery kept, by state.' })
  counts!: Record<string, number>;
  @ApiProperty({ type: [PushDeliveryDto], description: 'Newest first.' }) deliveries!: PushDeliveryDto[];
}
