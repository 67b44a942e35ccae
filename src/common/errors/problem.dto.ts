import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One itemized problem of a problem+json body (a config issue, a field error). */
export class ProblemItemDto {
  @ApiPropertyOptional({ example: 'agents.list[2].modle' }) path?: string;
  @ApiProperty({ example: 'unknown key (did you mean "model"?)' }) message!: string;
  @ApiPropertyOptional({ example: '/etc/clawgate/openclaw.json' }) file?: string;
  @ApiPropertyOptional({ example: 12 }) line?: number;
  @ApiPropertyOptional({ example: 5 }) column?: number;
}

/** The body of every HTTP error (RFC 9457 problem details), as documented in the OpenAPI document. */
export class ProblemDto {
  @ApiProperty({ example: 'about:blank' }) type!: string;
  @ApiProperty({ example: 'Unprocessable Entity' }) title!: string;
  @ApiProperty({ example: 422 }) status!: number;
  @ApiProperty({ example: '1 error in the config' }) detail!: string;
  @ApiPropertyOptional({ example: '/admin/config' }) instance?: string;
  @ApiPropertyOptional({ type: [ProblemItemDto] }) errors?: ProblemItemDto[];
}
