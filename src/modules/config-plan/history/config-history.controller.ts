import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../../common/auth/requires-role.decorator';
import { badRequest } from '../../../common/errors/app-error';
import { ProblemDto } from '../../../common/errors/problem.dto';
import { requireIfMatchOrAny } from '../../../common/http/if-match';
import { RevisionEtagInterceptor } from '../../../common/http/revisioned-write.decorator';
import { CONFIG_WRITE_ERRORS, IF_MATCH_OR_ANY, queryFlag } from '../config-write.controller';
import { ConfigHistoryDetailDto, ConfigHistoryPageDto, ConfigRollbackRequestDto } from '../dto/config-history.dto';
import { ConfigWriteResultDto } from '../dto/config-write.dto';
import { ConfigHistoryService, HISTORY_PAGE } from './config-history.service';

@ApiTags('config')
@Controller('admin/config')
export class ConfigHistoryController {
  constructor(private readonly history: ConfigHistoryService) {}

  @Get('history')
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Applied revisions, newest first',
    description: 'Every revision applied from a file edit, the admin API, the CLI or a rollback; the last 100 are kept.',
  })
  @ApiQuery({ name: 'limit', required: false, description: `1–${HISTORY_PAGE.max}, default ${HISTORY_PAGE.default}.` })
  @ApiQuery({ name: 'cursor', required: false, description: 'nextCursor of the previous page.' })
  @ApiOkResponse({ type: ConfigHistoryPageDto, description: 'A page of applied revisions, newest first.' })
  @ApiResponse({ status: 400, type: ProblemDto, description: 'limit out of range, or a cursor this endpoint did not give out.' })
  list(@Query('limit') limit: unknown, @Query('cursor') cursor: unknown): Promise<ConfigHistoryPageDto> {
    if (cursor !== undefined && typeof cursor !== 'string') throw badRequest('cursor must be given once');
    return this.history.list(pageLimit(limit), cursor);
  }

  @Get('history/:revision')
  @RequiresRole('admin')
  @ApiOperation({ summary: 'One applied revision: its files and the diff to the revision before it' })
  @ApiParam({ name: 'revision', example: '3f9a1c2b7d10' })
  @ApiOkResponse({ type: ConfigHistoryDetailDto, description: 'The revision with its files and the diff to its predecessor.' })
  @ApiResponse({ status: 400, type: ProblemDto, description: 'Not a revision (12 hexadecimal characters).' })
  @ApiResponse({ status: 404, type: ProblemDto, description: 'The revision is not in the history.' })
  get(@Param('revision') revision: string): Promise<ConfigHistoryDetailDto> {
    return this.history.get(revision);
  }

  @Post('rollback')
  @RequiresRole('admin')
  @HttpCode(200)
  @UseInterceptors(RevisionEtagInterceptor)
  @ApiOperation({
    summary: 'Write a recorded revision back',
    description:
      'Restores the files of that revision byte for byte, with the checks of PATCH /admin/config (If-Match, validation, no new literal ' +
      'secret unless ?allowLiteralSecrets=true); applied at once and recorded with source "rollback".',
  })
  @ApiHeader(IF_MATCH_OR_ANY)
  @ApiQuery({ name: 'allowLiteralSecrets', required: false, enum: ['true', 'false'] })
  @ApiBody({ type: ConfigRollbackRequestDto, examples: { rollback: { value: { revision: '3f9a1c2b7d10' } } } })
  @ApiOkResponse({ type: ConfigWriteResultDto, description: 'Rolled back (ETag: the new revision).' })
  @ApiResponse({ status: 404, type: ProblemDto, description: 'The revision is not in the history.' })
  @ApiResponse(CONFIG_WRITE_ERRORS[0])
  @ApiResponse(CONFIG_WRITE_ERRORS[1])
  @ApiResponse(CONFIG_WRITE_ERRORS[3])
  @ApiResponse(CONFIG_WRITE_ERRORS[4])
  @ApiResponse(CONFIG_WRITE_ERRORS[5])
  rollback(
    @Body() body: ConfigRollbackRequestDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Query('allowLiteralSecrets') allowLiteralSecrets: unknown,
  ): Promise<ConfigWriteResultDto> {
    const options = { ifMatch: requireIfMatchOrAny(ifMatch), allowLiteralSecrets: queryFlag('allowLiteralSecrets', allowLiteralSecrets) };
    return this.history.rollback(body.revision, options);
  }
}

function pageLimit(value: unknown): number {
  if (value === undefined) return HISTORY_PAGE.default;
  const n = typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= HISTORY_PAGE.max))
    throw badRequest(`limit must be an integer from 1 to ${HISTORY_PAGE.max} (got ${JSON.stringify(value)})`);
  return n;
}
