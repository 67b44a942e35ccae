import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ProblemDto } from '../../common/errors/problem.dto';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { ChangesNothing } from '../../common/auth/changes-nothing.decorator';
import { ConfigPlanService } from './config-plan.service';
import { ConfigPlanRequestDto } from './dto/config-plan-request.dto';
import { ConfigPlanDto } from './dto/config-plan-response.dto';

@ApiTags('config')
@Controller('admin/config')
export class ConfigPlanController {
  constructor(private readonly planner: ConfigPlanService) {}

  @Post('plan')
  @ChangesNothing()
  @RequiresRole('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'See what a config change would do, without applying it',
    description:
      'Runs the candidate (a whole JSON5 document, or a JSON Merge Patch against the file on disk) through the reload pipeline and ' +
      'compares it with the served config: validity and errors, warnings, the diff of the file, keys that would wait for a restart, ' +
      'and the impact on routing, agent-to-agent access, memory grants, A2A peers and admin access. Nothing is written or applied; ' +
      'an invalid candidate is still answered 200 with valid: false.',
  })
  @ApiBody({
    type: ConfigPlanRequestDto,
    examples: {
      mergePatch: {
        summary: 'Switch agent-to-agent messaging off',
        value: { mergePatch: { tools: { agentToAgent: { enabled: false } } } },
      },
      document: { summary: 'A whole file', value: { document: '{ agents: { list: [{ id: "main" }] } }' } },
    },
  })
  @ApiOkResponse({ type: ConfigPlanDto, description: 'The plan (valid or not).' })
  @ApiResponse({
    status: 400,
    type: ProblemDto,
    description: 'Neither or both of document and mergePatch, document not JSON5 text of an object, mergePatch not an object.',
  })
  @ApiResponse({
    status: 409,
    type: ProblemDto,
    description: 'The merge patch touches a section that an $include provides, or the file on disk is not JSON5.',
  })
  plan(@Body() body: ConfigPlanRequestDto): Promise<ConfigPlanDto> {
    return this.planner.plan(body);
  }
}
