import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 500;

export class AuditQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: AUDIT_PAGE_MAX, default: AUDIT_PAGE_DEFAULT, description: 'Entries per page.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(AUDIT_PAGE_MAX)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'Cursor: the `next` of the previous page. Omit for the newest entries.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  before?: number;
}

export class AuditEntryDto {
  @ApiProperty({ example: '2026-11-29T10:05:00.000Z' }) ts!: string;
  @ApiProperty({ example: 'sso:alice@example.com', description: '`token:<name>`, `sso:<user>`, `loopback`, or `anonymous` (no identity).' })
  subject!: string;
  @ApiProperty({ enum: ['none', 'viewer', 'operator', 'admin'] }) role!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    example: '10.1.2.3',
    description: 'Client address (the TCP peer, or the client a trusted proxy forwarded for).',
  })
  ip!: string | null;
  @ApiProperty({ example: 'POST' }) method!: string;
  @ApiProperty({ example: '/admin/agents', description: 'Without the query string.' }) path!: string;
  @ApiProperty({ example: 201 }) status!: number;
  @ApiProperty({ example: '3f9a1c2b7d10', description: 'Config revision in effect when the response was sent.' }) revision!: string;
}

export class AuditPageDto {
  @ApiProperty({ type: [AuditEntryDto], description: 'Newest first.' }) entries!: AuditEntryDto[];
  @ApiProperty({ nullable: true, type: Number, description: 'Pass as `before` for older entries; null at the start of the log.' })
  next!: number | null;
}
