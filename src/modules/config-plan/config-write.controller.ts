import { Body, Controller, Headers, Patch, Query, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { badRequest } from '../../common/errors/app-error';
import { ProblemDto } from '../../common/errors/problem.dto';
import { requireIfMatchOrAny } from '../../common/http/if-match';
import { RevisionEtagInterceptor } from '../../common/http/revisioned-write.decorator';
import { ConfigWriteService } from './config-write.service';
import { ConfigWriteResultDto } from './dto/config-write.dto';

export const MERGE_PATCH_TYPES = ['application/merge-patch+json', 'application/json'];

export const IF_MATCH_OR_ANY = {
  name: 'If-Match',
  required: true,
  description:
    'The revision you read (ETag of GET /admin/config, quoted or not), or * for whatever is current. Missing → 428; stale → 412.',
};

export const CONFIG_WRITE_ERRORS = [
  {
    status: 400,
    type: ProblemDto,
    description: 'The body is not a JSON object, the Content-Type is not JSON, or a query flag is not true/false.',
  },
  { status: 403, type: ProblemDto, description: 'The caller is not an admin.' },
  {
    status: 409,
    type: ProblemDto,
    description:
      'A file of the config is not JSON5 right now, a list is put together from several files, or the patch replaces an $include.',
  },
  {
    status: 412,
    type: ProblemDto,
    description: 'The config changed since the revision in If-Match, or a file edit on disk is not applied.',
  },
  {
    status: 422,
    type: ProblemDto,
    description: 'The result would be invalid, or a secret is a literal value: errors[] names each dotted path; nothing was written.',
  },
  { status: 428, type: ProblemDto, description: 'If-Match is missing.' },
];

@ApiTags('config')
@Controller('admin/config')
export class ConfigWriteController {
  constructor(private readonly writes: ConfigWriteService) {}

  @Patch()
  @RequiresRole('admin')
  @UseInterceptors(RevisionEtagInterceptor)
  @ApiOperation({
    summary: 'Change the config with a JSON Merge Patch',
    description:
      'RFC 7396 against the merged config (what GET /admin/config shows, before ${VAR}): null removes a key, objects merge, anything else ' +
      '(lists too) replaces. Each edited node is changed where it is written — the root file or the $include’d file that holds it — with ' +
      'comments and formatting kept everywhere else. The whole result is validated first (422 and nothing written when invalid), then ' +
      'applied at once. Secrets must be ${VAR} references unless ?allowLiteralSecrets=true. Recorded in GET /admin/config/history.',
  })
  @ApiConsumes(...MERGE_PATCH_TYPES)
  @ApiHeader(IF_MATCH_OR_ANY)
  @ApiQuery({ name: 'allowLiteralSecrets', required: false, enum: ['true', 'false'], description: 'Accept secrets written as values.' })
  @ApiBody({
    schema: { type: 'object', additionalProperties: true },
    examples: {
      agentToAgentOff: { summary: 'Switch agent-to-agent messaging off', value: { tools: { agentToAgent: { enabled: false } } } },
      peerAdded: {
        summary: 'Add an A2A peer (token from the environment)',
        value: { channels: { a2a: { peers: { hermes: { token: '${HERMES_TOKEN}' } } } } },
      },
      keyRemoved: { summary: 'Remove a key', value: { session: { dmScope: null } } },
    },
  })
  @ApiOkResponse({ type: ConfigWriteResultDto, description: 'Applied (ETag: the new revision).' })
  @ApiResponse(CONFIG_WRITE_ERRORS[0])
  @ApiResponse(CONFIG_WRITE_ERRORS[1])
  @ApiResponse(CONFIG_WRITE_ERRORS[2])
  @ApiResponse(CONFIG_WRITE_ERRORS[3])
  @ApiResponse(CONFIG_WRITE_ERRORS[4])
  @ApiResponse(CONFIG_WRITE_ERRORS[5])
  patch(
    @Body() body: unknown,
    @Headers('content-type') contentType: string | undefined,
    @Headers('if-match') ifMatch: string | undefined,
    @Query('allowLiteralSecrets') allowLiteralSecrets: unknown,
  ): Promise<ConfigWriteResultDto> {
    requireJson(contentType);
    return this.writes.patch(body, {
      ifMatch: requireIfMatchOrAny(ifMatch),
      allowLiteralSecrets: queryFlag('allowLiteralSecrets', allowLiteralSecrets),
    });
  }
}

/** A merge patch is JSON; a JSON5 or text body would be a different thing (a whole document). */
export function requireJson(contentType: string | undefined): void {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!MERGE_PATCH_TYPES.includes(type)) {
    throw badRequest(
      `send the merge patch as ${MERGE_PATCH_TYPES.join(' or ')} (got ${type ? `Content-Type ${type}` : 'no Content-Type'})`,
    );
  }
}

/** `true`, `false` or absent; anything else is named. */
export function queryFlag(name: string, value: unknown): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw badRequest(`${name} must be true or false (got ${JSON.stringify(value)})`);
}
