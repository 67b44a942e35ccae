import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ProblemDto } from '../../common/errors/problem.dto';
import { ResolveRouteRequestDto, RouteResultDto, toInboundMessage } from './dto/resolve-route.dto';
import { RoutingService } from './routing.service';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { ChangesNothing } from '../../common/auth/changes-nothing.decorator';

@ApiTags('routing')
@Controller('admin/routing')
export class RoutingController {
  constructor(private readonly routing: RoutingService) {}

  @Post('resolve')
  @ChangesNothing()
  @RequiresRole('viewer')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Dry-run routing for an inbound message',
    description:
      'Returns the agent and session key the gateway would use, the precedence tier and binding index that decided it ' +
      '(tiers: peer → guildId → teamId → accountId → accountId:"*" → channel → default), and the matched binding. ' +
      'Uses the live config revision and the same cache as real traffic. A missing accountId is the default account.',
  })
  @ApiBody({
    type: ResolveRouteRequestDto,
    examples: {
      direct: {
        summary: 'Direct message',
        value: { channel: 'whatsapp', accountId: 'work', peer: { kind: 'direct', id: '+15551234567' } },
      },
      guildThread: {
        summary: 'Message in a Discord guild thread',
        value: { channel: 'discord', peer: { kind: 'channel', id: '998877' }, guildId: '123456789012345678', threadId: '55443322' },
      },
      channelOnly: { summary: 'No peer (main session)', value: { channel: 'http' } },
    },
  })
  @ApiOkResponse({
    type: RouteResultDto,
    description: 'The route.',
    example: {
      agentId: 'support',
      sessionKey: 'agent:support:whatsapp:direct:+15551234567',
      matchedBy: { tier: 'accountId', bindingIndex: 0 },
      binding: { index: 0, agentId: 'support', match: { channel: 'whatsapp', accountId: 'work' } },
    },
  })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Invalid inbound description; detail and errors[] name each field.' })
  resolve(@Body() body: ResolveRouteRequestDto): RouteResultDto {
    return this.routing.explain(toInboundMessage(body));
  }
}
