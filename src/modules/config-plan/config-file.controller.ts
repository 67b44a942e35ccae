import { Body, Controller, Get, Headers, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { badRequest } from '../../common/errors/app-error';
import { requireIfMatchOrAny } from '../../common/http/if-match';
import { RevisionEtagInterceptor } from '../../common/http/revisioned-write.decorator';
import { ConfigFileService } from './config-file.service';
import { CONFIG_WRITE_ERRORS, IF_MATCH_OR_ANY, queryFlag } from './config-write.controller';
import { ConfigFileDto } from './dto/config-file.dto';
import { ConfigWriteResultDto } from './dto/config-write.dto';

const TEXT_TYPES = ['application/json5', 'text/plain'];

@ApiTags('config')
@Controller('admin/config')
export class ConfigFileController {
  constructor(private readonly files: ConfigFileService) {}

  @Get('file')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'The config file as written (comments kept, secrets redacted)',
    description:
      'The root openclaw.json as JSON5 text, its comments and layout as they are, each literal secret as "[redacted]" (${VAR} references ' +
      'shown as written), and the files it $includes. ETag is the served revision; send it as If-Match with PUT /admin/config/file.',
  })
  @ApiOkResponse({ type: ConfigFileDto, description: 'The root file’s text (ETag: the served revision).' })
  @ApiResponse({ status: 409, description: 'The file cannot be read right now.' })
  async read(@Res({ passthrough: true }) res: Response): Promise<ConfigFileDto> {
    const file = await this.files.read();
    res.setHeader('ETag', `"${file.revision}"`);
    return file;
  }

  @Put('file')
  @RequiresRole('admin')
  @UseInterceptors(RevisionEtagInterceptor)
  @ApiOperation({
    summary: 'Replace the config file with this text',
    description:
      'The whole root openclaw.json as JSON5 text (Content-Type application/json5), written as sent: comments and layout are the ' +
      'text’s own. A "[redacted]" at a secret’s path keeps the secret the file holds there (so the text of GET /admin/config/file ' +
      'can be edited and sent back); one where the file holds none, or in an entry whose name/id changed, is a 422 naming the path. ' +
      'Validated whole first (422 and nothing written when invalid), then applied at once. New literal secrets need ' +
      '?allowLiteralSecrets=true. Recorded in GET /admin/config/history.',
  })
  @ApiConsumes(...TEXT_TYPES)
  @ApiHeader(IF_MATCH_OR_ANY)
  @ApiQuery({ name: 'allowLiteralSecrets', required: false, enum: ['true', 'false'], description: 'Accept new secrets written as values.' })
  @ApiBody({ schema: { type: 'string', example: '{\n  // the agents\n  agents: { list: [{ id: "main" }] },\n}\n' } })
  @ApiOkResponse({ type: ConfigWriteResultDto, description: 'Applied (ETag: the new revision).' })
  @ApiResponse({ ...CONFIG_WRITE_ERRORS[0], description: 'The body is not text, is empty, or a query flag is not true/false.' })
  @ApiResponse(CONFIG_WRITE_ERRORS[1])
  @ApiResponse({ ...CONFIG_WRITE_ERRORS[2], description: 'A file of the config is not JSON5 right now.' })
  @ApiResponse(CONFIG_WRITE_ERRORS[3])
  @ApiResponse(CONFIG_WRITE_ERRORS[4])
  @ApiResponse(CONFIG_WRITE_ERRORS[5])
  write(
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Query('allowLiteralSecrets') allowLiteralSecrets: unknown,
  ): Promise<ConfigWriteResultDto> {
    if (typeof body !== 'string' || !body.trim()) {
      throw badRequest(`send the whole file as JSON5 text with Content-Type ${TEXT_TYPES.join(' or ')}`);
    }
    return this.files.write(body, {
      ifMatch: requireIfMatchOrAny(ifMatch),
      allowLiteralSecrets: queryFlag('allowLiteralSecrets', allowLiteralSecrets),
    });
  }
}
