import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ProblemDto } from '../../../common/errors/problem.dto';
import { HttpInboundMessageDto, HttpRunAcceptedDto, HttpRunResultDto } from './dto/http-message.dto';
import { HttpAccountGuard, HttpAccountId } from './http-account.guard';
import { HttpChannelService } from './http-channel.service';

/**
 * Name of the OpenAPI security scheme of this channel. The document builder declares it with
 * `.addBearerAuth({type: 'http', scheme: 'bearer', description: ...}, HTTP_CHANNEL_SECURITY)`.
 */
export const HTTP_CHANNEL_SECURITY = 'http-channel';

@ApiTags('channels')
@Controller('channels/http')
export class HttpChannelController {
  constructor(private readonly channel: HttpChannelService) {}

  @Post('messages')
  @HttpCode(200)
  @UseGuards(HttpAccountGuard)
  @ApiBearerAuth(HTTP_CHANNEL_SECURITY)
  @ApiOperation({
    summary: 'Send a message to an agent through the http channel',
    description:
      'Authenticate with `Authorization: Bearer <token>` of an account in `channels.http.accounts`; that account is the ' +
      'caller\'s identity (bindings match it as `{channel: "http", accountId}`). The message is routed like any inbound ' +
      'message (session key by `session.dmScope`), run, and — unless `wait: false` — the reply is returned. A run that ' +
      'fails answers 200 with `status: "failed"` and `error`. Deliveries back to the conversation (announce results, ' +
      "agent-initiated messages) are POSTed to the account's `webhookUrl` with header " +
      '`X-Clawgate-Signature: sha256=<hex>`: the lowercase hex HMAC-SHA256 of the exact body bytes keyed by the account ' +
      'token; body `{sessionKey, to, text, threadId?, ts}`. Without a webhookUrl they are kept in the session transcript.',
  })
  @ApiBody({
    type: HttpInboundMessageDto,
    examples: {
      direct: { summary: 'Direct message, wait for the reply', value: { peer: { kind: 'direct', id: 'customer-4711' }, text: 'hello' } },
      threadNoWait: {
        summary: 'Group thread, do not wait',
        value: { peer: { kind: 'group', id: 'team-support' }, threadId: 'ticket-981', text: 'status?', wait: false },
      },
    },
  })
  @ApiOkResponse({
    type: HttpRunResultDto,
    description: 'The run finished (completed, failed or aborted).',
    example: {
      runId: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b',
      sessionKey: 'agent:support:main',
      agentId: 'support',
      status: 'completed',
      reply: '[support] hello',
    },
  })
  @ApiAcceptedResponse({
    type: HttpRunAcceptedDto,
    description: '`wait: false`, or the run was not done within 120 s (then `status: "running"`).',
    example: { runId: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b', sessionKey: 'agent:support:main' },
  })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Invalid body; detail and errors[] name each field.' })
  @ApiUnauthorizedResponse({ type: ProblemDto, description: 'Missing or invalid bearer token (nothing else is revealed).' })
  @ApiNotFoundResponse({ type: ProblemDto, description: '`channels.http.enabled` is not true.' })
  async receive(
    @HttpAccountId() accountId: string,
    @Body() body: HttpInboundMessageDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<HttpRunResultDto | HttpRunAcceptedDto> {
    const outcome = await this.channel.receive(accountId, body);
    res.status(outcome.status);
    return outcome.body;
  }
}
