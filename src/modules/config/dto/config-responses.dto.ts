import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

export class ConfigIssueDto {
  @ApiProperty({ example: 'agents.list[2].modle' }) path!: string;
  @ApiProperty({ example: 'unknown key (did you mean "model"?)' }) message!: string;
  @ApiPropertyOptional({ example: '/etc/clawgate/openclaw.json' }) file?: string;
  @ApiPropertyOptional({ example: 12 }) line?: number;
  @ApiPropertyOptional({ example: 5 }) column?: number;
}

export class ConfigDocumentDto {
  @ApiProperty({ example: '3f9a1c2b7d10', description: 'Also sent as the ETag header.' }) revision!: string;
  @ApiProperty({ example: '/etc/clawgate/openclaw.json' }) configPath!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The merged document as written (includes resolved). Secrets show as "[redacted]"; pure ${VAR} references are shown.',
    example: { gateway: { port: 18789 }, channels: { a2a: { peers: { hermes: { token: '${A2A_HERMES_TOKEN}' } } } } },
  })
  document!: Record<string, unknown>;
}

/** Shape of `ConfigStatusDto.lastError` (its schema is written inline there). */
export interface ConfigLastErrorDto {
  at: string;
  errors: ConfigIssueDto[];
}

export class ConfigStatusDto {
  @ApiProperty({ example: '3f9a1c2b7d10' }) revision!: string;
  @ApiProperty({ example: '2026-11-29T10:00:00.000Z' }) loadedAt!: string;
  @ApiProperty() configPath!: string;
  @ApiProperty({ type: [String], description: 'Files the config was read from (root first).' }) files!: string[];
  /*
   * Inline rather than a $ref: in OpenAPI 3.0 `nullable` does not reach through `allOf: [$ref]` (the referenced
   * object schema still refuses null), so a validating client would reject the usual `lastError: null`.
   */
  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'The last rejected change, cleared by the next applied one.',
    properties: {
      at: { type: 'string', example: '2026-11-29T10:00:00.000Z' },
      errors: { type: 'array', items: { $ref: getSchemaPath(ConfigIssueDto) } },
    },
    required: ['at', 'errors'],
  })
  lastError!: ConfigLastErrorDto | null;
  @ApiProperty({ type: [String], example: ['gateway.port'], description: 'Changed keys that need a restart.' })
  pendingRestart!: string[];
  @ApiProperty({ type: [ConfigIssueDto] }) warnings!: ConfigIssueDto[];
  @ApiProperty({ enum: ['hybrid', 'off'] }) reloadMode!: string;
}

export class ConfigValidationDto {
  @ApiProperty({ example: true }) valid!: boolean;
  @ApiProperty({ example: '3f9a1c2b7d10', description: 'The revision this config would get.' }) revision!: string;
  @ApiProperty({ type: [ConfigIssueDto] }) warnings!: ConfigIssueDto[];
}

export class ReloadOutcomeDto {
  @ApiProperty({ enum: ['applied', 'unchanged'], description: 'A rejected reload answers 422 instead.' }) status!: string;
  @ApiProperty({ example: '3f9a1c2b7d10' }) revision!: string;
  @ApiProperty({ type: [ConfigIssueDto] }) warnings!: ConfigIssueDto[];
  @ApiProperty({ type: [String] }) pendingRestart!: string[];
}
