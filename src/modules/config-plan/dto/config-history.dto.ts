import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

export class ConfigHistoryItemDto {
  @ApiProperty({ example: '3f9a1c2b7d10' }) revision!: string;
  @ApiProperty({ example: '2026-12-01T19:05:00.000Z', description: 'When the revision was applied (ISO 8601).' }) appliedAt!: string;
  @ApiProperty({ enum: ['file', 'api', 'cli', 'rollback'], description: 'What applied it.' }) source!: string;
  @ApiProperty({ example: 'token:ops', description: 'The admin identity, the CLI user (cli:<user>), or "file".' }) subject!: string;
  @ApiProperty({ example: 'changed tools; 6 agent-to-agent pair(s) change', description: 'What changed, by name (never a value).' })
  summary!: string;
}

export class ConfigHistoryPageDto {
  @ApiProperty({ type: [ConfigHistoryItemDto], description: 'Newest first.' }) items!: ConfigHistoryItemDto[];
  @ApiPropertyOptional({ example: 'MTc2NDYxNjMwMDAwMC40Mg', description: 'Pass as ?cursor= for older entries; absent on the last page.' })
  nextCursor?: string;
}

class ConfigHistoryFileDto {
  @ApiProperty({ example: 'openclaw.json', description: 'Relative to the directory of the root file.' }) path!: string;
  @ApiProperty({ description: 'The text as applied; literal secrets show as [redacted], ${VAR} references as written.' }) text!: string;
}

export class ConfigHistoryDetailDto extends ConfigHistoryItemDto {
  @ApiProperty({
    example: '{\n  // comments as written\n  agents: { list: [{ id: "main" }] },\n}\n',
    description: 'The root file as applied.',
  })
  document!: string;
  @ApiProperty({ type: [ConfigHistoryFileDto], description: 'Every file of the revision, the root first ($include layouts).' })
  files!: ConfigHistoryFileDto[];
  @ApiProperty({ description: 'Unified diff of every file against the revision applied before it; empty for the oldest kept.' })
  diff!: string;
}

export class ConfigRollbackRequestDto {
  @ApiProperty({ type: String, example: '3f9a1c2b7d10', description: 'A revision of GET /admin/config/history.' })
  @Allow()
  revision!: unknown;
}
