import { Body, Controller, Get, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { badRequest } from '../../common/errors/app-error';
import { ConfigAdminService, invalidConfig } from './config-admin.service';
import { nestingIssue } from './pipeline/nesting-limit';
import { stripEtag } from '../../common/http/if-match';
import { ConfigStore } from './config.store';
import { ProblemDto } from '../../common/errors/problem.dto';
import { ConfigDocumentDto, ConfigStatusDto, ConfigValidationDto, ReloadOutcomeDto } from './dto/config-responses.dto';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { ChangesNothing } from '../../common/auth/changes-nothing.decorator';

@ApiTags('config')
@Controller('admin/config')
export class ConfigController {
  constructor(
    private readonly admin: ConfigAdminService,
    private readonly store: ConfigStore,
  ) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'The current config (secrets redacted)',
    description: 'ETag is the revision; send it as If-Match on writes. If-None-Match with the current ETag answers 304.',
  })
  @ApiOkResponse({ type: ConfigDocumentDto, description: 'The served document, secrets redacted; ETag is its revision.' })
  @ApiResponse({ status: 304, description: 'Unchanged since the ETag in If-None-Match.' })
  get(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res({ passthrough: true }) res: Response): ConfigDocumentDto | undefined {
    const doc = this.admin.document();
    res.setHeader('ETag', `"${doc.revision}"`);
    if (ifNoneMatch && stripEtag(ifNoneMatch) === doc.revision) {
      res.status(304);
      return undefined;
    }
    return doc;
  }

  @Get('status')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Revision, load time, last rejected change, keys waiting for a restart, warnings' })
  @ApiOkResponse({ type: ConfigStatusDto, description: 'The served revision, reload state and the last rejected change.' })
  status(): ConfigStatusDto {
    return this.store.status();
  }

  @Post('validate')
  @ChangesNothing()
  @RequiresRole('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Validate a config without applying it',
    description:
      'Send the file as text (Content-Type application/json5, or text/plain with the X-Clawgate-Client header, which a form cannot send) ' +
        'or as a JSON object. $include paths resolve relative to the live config file.',
  })
  @ApiConsumes('application/json5', 'text/plain', 'application/json')
  @ApiBody({ schema: { type: 'object', additionalProperties: true, example: { agents: { list: [{ id: 'main' }] } } } })
  @ApiOkResponse({ type: ConfigValidationDto, description: 'Valid: its revision and warnings.' })
  @ApiResponse({ status: 400, type: ProblemDto, description: 'The body is neither JSON5 text nor a JSON object.' })
  @ApiResponse({ status: 422, type: ProblemDto, description: 'Invalid: errors[] names each dotted path.' })
  validate(@Body() body: unknown): Promise<ConfigValidationDto> {
    return this.admin.validate(bodyAsText(body));
  }

  @Post('reload')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reload openclaw.json now',
    description: 'Applies the file if valid; a rejected change leaves the running config untouched.',
  })
  @ApiOkResponse({ type: ReloadOutcomeDto, description: 'Reloaded (or unchanged): the revision now served.' })
  @ApiResponse({ status: 422, type: ProblemDto, description: 'The file is invalid; still serving the previous revision.' })
  reload(): Promise<ReloadOutcomeDto> {
    return this.admin.reload();
  }
}

function bodyAsText(body: unknown): string {
  if (typeof body === 'string') {
    if (!body.trim()) throw badRequest('the request body is empty; send the config as JSON5 text or a JSON object');
    return body;
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    // JSON.stringify recurses: a body nested too deeply is answered like the same text would be, not with a crash.
    const tooDeep = nestingIssue(body);
    if (tooDeep) throw invalidConfig([tooDeep]);
    return JSON.stringify(body);
  }
  throw badRequest('send the config as JSON5 text (Content-Type application/json5) or as a JSON object');
}
