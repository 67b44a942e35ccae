import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../../common/auth/requires-role.decorator';
import { badRequest } from '../../../common/errors/app-error';
import { ProblemDto } from '../../../common/errors/problem.dto';
import { ChannelsAdminService } from './channels-admin.service';
import { ChannelListDto } from './dto/channel-status.dto';
import { PairingDecisionDto, PairingListDto } from './dto/pairing.dto';

/** The chat channels and their health, and DM pairing (docs/channels.md#operations, #pairing). */
@ApiTags('channels')
@Controller('admin')
export class ChannelsAdminController {
  constructor(private readonly admin: ChannelsAdminService) {}

  @Get('channels')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Every channel and its health',
    description:
      'The channels this gateway serves: those plugins registered (the bundled ones: a2a, http, openai, and the chat channels; `plugin` `core` for one the gateway would serve itself), each ' +
      'with its plugin, whether it is enabled, its state (`failed` with the error while its start is retried with ' +
      'backoff), and per account the state the channel last reported with the platform’s error, the messages in and ' +
      'out, delivery failures and reconnections since the gateway started.',
  })
  @ApiOkResponse({ type: ChannelListDto, description: 'The channels.' })
  async list(): Promise<ChannelListDto> {
    return { channels: await this.admin.list() };
  }

  @Get('pairing')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Pending pairing codes and approved senders',
    description:
      'Per chat channel: the one-time codes unknown senders were given under the `pairing` DM policy (valid one hour, at ' +
      'most 3 per channel) and the senders approved so far.',
  })
  @ApiQuery({ name: 'channel', required: false, description: 'Only this channel.' })
  @ApiOkResponse({ type: PairingListDto, description: 'Pairing state by channel.' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'The `channel` parameter is given more than once or empty.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No chat channel with this id.' })
  async pairing(@Query('channel') channel?: unknown): Promise<PairingListDto> {
    if (channel !== undefined && (typeof channel !== 'string' || !channel)) {
      throw badRequest('channel: give one non-empty channel id', [{ field: 'channel', message: 'one non-empty channel id' }]);
    }
    return { channels: await this.admin.pairing(channel) };
  }

  @Post('pairing/:channel/:code/approve')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Approve a pairing code',
    description: 'The sender the code was given to passes the channel’s `pairing` DM policy from its next message on.',
  })
  @ApiParam({ name: 'channel', description: 'The chat channel id.' })
  @ApiParam({ name: 'code', description: 'The code (case and dashes do not matter).' })
  @ApiOkResponse({ type: PairingDecisionDto, description: 'Approved.' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Not shaped like a pairing code.' })
  @ApiNotFoundResponse({
    type: ProblemDto,
    description: 'No such chat channel, or no pending code like this one (expired, decided, never given).',
  })
  approve(@Param('channel') channel: string, @Param('code') code: string): Promise<PairingDecisionDto> {
    return this.admin.decide(channel, code, 'approve');
  }

  @Post('pairing/:channel/:code/deny')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({ summary: 'Deny a pairing code', description: 'The code is dropped; the sender may ask again and gets a new one.' })
  @ApiParam({ name: 'channel', description: 'The chat channel id.' })
  @ApiParam({ name: 'code', description: 'The code (case and dashes do not matter).' })
  @ApiOkResponse({ type: PairingDecisionDto, description: 'Denied.' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Not shaped like a pairing code.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such chat channel, or no pending code like this one.' })
  deny(@Param('channel') channel: string, @Param('code') code: string): Promise<PairingDecisionDto> {
    return this.admin.decide(channel, code, 'deny');
  }
}
