import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

/** One itemized problem of a problem+json body (a config issue, a field error). */
export class ProblemItemDto {
  @ApiPropertyOptional({ example: 'agents.list[2].modle' }) path?: string;
  @ApiProperty({ example: 'unknown key (did you mean "model"?)' }) message!: string;
  @ApiPropertyOptional({ example: '/etc/clawgate/openclaw.json' }) file?: string;
  @ApiPropertyOptional({ example: 12 }) line?: number;
  @ApiPropertyOptional({ example: 5 }) column?: number;
}

/** The item of an A2A task error (not found, not cancelable...): which task it is about. */
export class ProblemTaskItemDto {
  @ApiProperty({ example: '01a2331b-5368-711b-beb5-302855f6b6a3' }) taskId!: string;
}

/** The body of every HTTP error (RFC 9457 problem details), as documented in the OpenAPI document. */
@ApiExtraModels(ProblemItemDto, ProblemTaskItemDto)
export class ProblemDto {
  @ApiProperty({ example: 'about:blank' }) type!: string;
  @ApiProperty({ example: 'Unprocessable Entity' }) title!: string;
  @ApiProperty({ example: 422 }) status!: number;
  @ApiProperty({ example: '1 error in the config' }) detail!: string;
  @ApiPropertyOptional({ example: '/admin/config' }) instance?: string;
  @ApiPropertyOptional({
    type: 'array',
    items: { oneOf: [{ $ref: getSchemaPath(ProblemItemDto) }, { $ref: getSchemaPath(ProblemTaskItemDto) }] },
    description: 'Itemized problems: a field or config issue each, or the task an A2A task error is about.',
  })
  errors?: Array<ProblemItemDto | ProblemTaskItemDto>;
}
