import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ProblemDto } from '../../common/errors/problem.dto';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { AuditLog } from './audit-log.service';
import { AUDIT_PAGE_DEFAULT, AuditPageDto, AuditQueryDto } from './dto/audit.dto';

/** The admin audit log. Admin-only: it shows who did what from where, which a viewer has no need to know. */
@ApiTags('audit')
@Controller('admin/audit')
export class AuditController {
  constructor(private readonly audit: AuditLog) {}

  @Get()
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Admin writes and denied admin requests, newest first',
    description: 'Pages through <stateDir>/audit.jsonl. Follow `next` (as `before`) for older entries.',
  })
  @ApiOkResponse({
    type: AuditPageDto,
    description: 'A page of entries, newest first; `next` continues.',
    example: {
      entries: [
        {
          ts: '2026-11-29T10:05:00.000Z',
          subject: 'sso:alice@example.com',
          role: 'admin',
          ip: '10.1.2.3',
          method: 'POST',
          path: '/admin/agents',
          status: 201,
          revision: '3f9a1c2b7d10',
        },
        {
          ts: '2026-11-29T10:04:12.000Z',
          subject: 'anonymous',
          role: 'none',
          ip: '10.9.9.9',
          method: 'GET',
          path: '/admin/config',
          status: 401,
          revision: '0b1c2d3e4f50',
        },
      ],
      next: 4096,
    },
  })
  @ApiResponse({ status: 400, type: ProblemDto, description: 'limit or before out of range.' })
  list(@Query() query: AuditQueryDto): Promise<AuditPageDto> {
    return this.audit.page(query.limit ?? AUDIT_PAGE_DEFAULT, query.before);
  }
}
