import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { ProblemDto } from '../../common/errors/problem.dto';
import { UsagePageDto } from './dto/usage.dto';
import { readUsageQuery, USAGE_PAGE, usageCursor, type RawUsageQuery } from './usage-query';
import { USAGE_BUCKETS, USAGE_GROUPS, USAGE_STORE, type UsageStore } from './usage-store.port';

@ApiTags('usage')
@Controller('admin/usage')
export class UsageController {
  constructor(@Inject(USAGE_STORE) private readonly store: UsageStore) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Model tokens and cost, grouped',
    description:
      'Every model call that reported usage, summed per agent, session, A2A peer, OpenAI/MCP key, channel account or model over ' +
      '[from, to), optionally per hour or day (UTC). Cost comes from the models’ cost entries (docs/usage.md).',
  })
  @ApiQuery({ name: 'groupBy', required: false, enum: USAGE_GROUPS, description: 'Default agent.' })
  @ApiQuery({ name: 'from', required: false, description: 'ISO 8601 time, or a duration back from now (24h, 7d, 30m). Default: to − 24h.' })
  @ApiQuery({ name: 'to', required: false, description: 'ISO 8601 time or a duration back from now. Default: now.' })
  @ApiQuery({ name: 'bucket', required: false, enum: USAGE_BUCKETS, description: 'Split each group per hour or per day (UTC).' })
  @ApiQuery({ name: 'limit', required: false, description: `Groups per page, 1–${USAGE_PAGE.max}, default ${USAGE_PAGE.default}.` })
  @ApiQuery({ name: 'cursor', required: false, description: 'nextCursor of the previous page.' })
  @ApiOkResponse({ type: UsagePageDto, description: 'A page of groups.' })
  @ApiResponse({ status: 400, type: ProblemDto, description: 'A query parameter out of its range; the detail names it.' })
  async list(@Query() raw: RawUsageQuery): Promise<UsagePageDto> {
    const query = readUsageQuery(raw);
    // One more than the page: whether there is a next one.
    const rows = await this.store.groups({ ...query, limit: query.limit + 1 });
    const items = rows.slice(0, query.limit).map(({ bucket, ...group }) => ({
      ...group,
      ...(bucket !== undefined ? { bucket: new Date(bucket).toISOString() } : {}),
    }));
    return {
      groupBy: query.groupBy,
      ...(query.bucket ? { bucket: query.bucket } : {}),
      from: new Date(query.from).toISOString(),
      to: new Date(query.to).toISOString(),
      items,
      ...(rows.length > query.limit ? { nextCursor: usageCursor(query.offset + query.limit) } : {}),
    };
  }
}
