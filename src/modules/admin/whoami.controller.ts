import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { getPrincipal } from './admin-principal';
import { WhoAmIDto } from './dto/whoami.dto';

/**
 * The caller's own identity and role, so a client (the web console) can offer only what the role allows. The server
 * still checks every call; this only saves the operator from buttons that would be refused.
 */
@ApiTags('admin')
@Controller('admin/whoami')
export class WhoAmIController {
  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Who the admin API takes the caller for, and with which role' })
  @ApiOkResponse({ type: WhoAmIDto, description: 'The caller.', example: { subject: 'token:ops-lead', role: 'admin', via: 'token' } })
  whoami(@Req() req: Request): WhoAmIDto {
    const principal = getPrincipal(req);
    // The gate and the role guard let no request through without one; answer like them if that ever changes.
    if (!principal) throw new AppError(ErrorCode.Unauthenticated, 'no admin identity on this request');
    return { subject: principal.subject, role: principal.role, via: principal.via };
  }
}
