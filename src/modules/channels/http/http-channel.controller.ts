import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiExtraModels,
  ApiOperation,
  ApiTags,
  getSchemaPath,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ProblemDto } from '../../../common/errors/problem.dto';
import { SseResponse } from '../../../common/http/sse-response';
import { HttpInboundMessageDto, HttpRunAcceptedDto, HttpRunResultDto } from './dto/http-message.dto';
import { HttpAccountGuard, HttpAccountId } from './http-account.guard';
import { HttpChannelService } from './http-channel.service';

/**
 * Name of the OpenAPI security scheme of this channel. The document builder declares it with
 * `.addBearerAuth({type: 'http', scheme: 'bearer', description: ...}, HTTP_CHANNEL_SECURITY)`.
 */
export const HTTP_CHANNEL_SECURITY = 'http-channel';

/** What a streamed reply looks like (docs/channels.md#streaming-the-reply), for the OpenAPI description. */
const STREAM_EXAMPLE = [
  'event: run',
  'data: {"runId":"0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b","sessionKey":"agent:support:main","agentId":"support"}',
  '',
  'event: delta',
  'data: {"round":0,"text":"[support] "}',
  '',
  'event: delta',
  'data: {"round":0,"text":"hello"}',
  '',
  'event: done',
  'data: {"runId":"0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b","sessionKey":"agent:support:main","agentId":"support","status":"completed","reply":"[support] hello"}',
  '',
].join('\n');

@ApiTags('channels')
@ApiExtraModels(HttpRunResultDto)
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
      'token; body `{sessionKey, to, text, threadId?, ts}`. Without a webhookUrl they are kept in the session transcript.\n\n' +
      '`stream: true` answers `text/event-stream` instead: one `run` event `{runId, sessionKey, agentId}`, then `delta` ' +
      'events `{round, text}` as the agent writes (`round` is the tool round; the reply is the concatenation of the last ' +
      "round's texts), then one `done` event with the same object as the JSON answer, and the stream ends. Without a wait " +
      'limit; a client that disconnects leaves the run going (its reply lands in the session).',
  })
  @ApiBody({
    type: HttpInboundMessageDto,
    examples: {
      direct: { summary: 'Direct message, wait for the reply', value: { peer: { kind: 'direct', id: 'customer-4711' }, text: 'hello' } },
      threadNoWait: {
        summary: 'Group thread, do not wait',
        value: { peer: { kind: 'group', id: 'team-support' }, threadId: 'ticket-981', text: 'status?', wait: false },
      },
      streamed: {
        summary: 'Stream the reply (Server-Sent Events)',
        value: { peer: { kind: 'direct', id: 'customer-4711' }, text: 'hello', stream: true },
      },
    },
  })
  @ApiOkResponse({
    description: 'The run finished (completed, failed or aborted); with `stream: true`, the event stream of the reply.',
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(HttpRunResultDto) },
        example: {
          runId: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b',
          sessionKey: 'agent:support:main',
          agentId: 'support',
          status: 'completed',
          reply: '[support] hello',
        },
      },
      'text/event-stream': {
        schema: { type: 'string', description: 'Events `run`, `delta` (any number), `done`; each data line is one JSON object.' },
        example: STREAM_EXAMPLE,
      },
    },
  })
  @ApiAcceptedResponse({
    type: HttpRunAcceptedDto,
    description: '`wait: false`, or the run was not done within 120 s (then `status: "running"`).',
    example: { runId: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b', sessionKey: 'agent:support:main' },
  })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'Invalid body (also `stream: true` with `wait: false`); detail and errors[] name each field.',
  })
  @ApiUnauthorizedResponse({ type: ProblemDto, description: 'Missing or invalid bearer token (nothing else is revealed).' })
  @ApiNotFoundResponse({ type: ProblemDto, description: '`channels.http.enabled` is not true.' })
  async receive(@HttpAccountId() accountId: string, @Body() body: HttpInboundMessageDto, @Res() res: Response): Promise<void> {
    if (body.stream === true) return this.streamReply(accountId, body, res);
    const outcome = await this.channel.receive(accountId, body);
    res.status(outcome.status).json(outcome.body);
  }

  /** The reply as Server-Sent Events: `run`, the `delta`s, `done`; then the response ends. */
  private async streamReply(accountId: string, body: HttpInboundMessageDto, res: Response): Promise<void> {
    // Nothing is written before the `run` event, so a routing failure still answers as a problem. No delta can come
    // before that event: a run reaches its model only after awaiting its transcript write.
    const sse = new SseResponse(res);
    const run = this.channel.stream(accountId, body, (delta) => sse.json('delta', delta));
    sse.json('run', { runId: run.runId, sessionKey: run.sessionKey, agentId: run.agentId });
    sse.json('done', await run.result);
    sse.end();
  }
}
