import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ProblemDto } from '../../common/errors/problem.dto';
import { PolicyCheckQueryDto, PolicyCheckResultDto } from './dto/policy-check.dto';
import { PolicyCheckService } from './policy-check.service';
import { RequiresRole } from '../../common/auth/requires-role.decorator';

@ApiTags('policy')
@ApiExtraModels(PolicyCheckResultDto)
@Controller('admin/policy')
export class PolicyController {
  constructor(private readonly policy: PolicyCheckService) {}

  @Get('check')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Dry-run layers 2 and 3 for a pair of agents/sessions',
    description:
      'Runs the same guard the session tools use (tools.sessions.visibility, sandbox, tools.agentToAgent) and ' +
      'says which layer and rule decided. Sessions default to agent:<id>:<session.mainKey>; a given session ' +
      'must belong to its agent. Nothing is created or sent.',
  })
  @ApiOkResponse({
    description: 'The decision (200 whether allowed or not).',
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(PolicyCheckResultDto) },
        examples: {
          allowed: {
            summary: 'cross-agent, allowed',
            value: {
              allowed: true,
              layer: null,
              rule: 'visibility=all; tools.agentToAgent.allow: "support" matched support, "expert" matched expert',
            },
          },
          policy: {
            summary: 'Agent-to-agent messaging switched off',
            value: {
              allowed: false,
              layer: 'policy',
              rule: 'tools.agentToAgent.enabled is not true',
              message: 'Agent-to-agent messaging is disabled.',
            },
          },
          visibility: {
            summary: 'visibility too narrow',
            value: {
              allowed: false,
              layer: 'visibility',
              rule: 'visibility=tree: cross-agent sessions need visibility=all',
              message: 'Session is not visible from this session (tools.sessions.visibility=tree).',
            },
          },
        },
      },
    },
  })
  @ApiResponse({
    status: 400,
    type: ProblemDto,
    description: 'from/to missing, or a session key that is malformed or belongs to another agent.',
  })
  @ApiResponse({ status: 404, type: ProblemDto, description: 'from or to names an agent that is not configured.' })
  check(@Query() query: PolicyCheckQueryDto): Promise<PolicyCheckResultDto> {
    return this.policy.check(query);
  }
}
