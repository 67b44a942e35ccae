import { Controller, HttpCode, Module, Post } from '@nestjs/common';
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
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ProblemDto } from '../../common/errors/problem.dto';
import { HttpInboundMessageDto, HttpRunAcceptedDto, HttpRunResultDto } from './dto/http-message.dto';

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

/**
 * The OpenAPI description of the http channel's route, `POST /channels/http/messages`. The route itself is the bundled
 * plugin's (http-route.ts: served ahead of the gateway's body parsers, while the plugin is loaded); a plugin route is
 * not a Nest controller, so this controller stands in for it in the document the gateway builds from its controllers.
 * Its handler answers only when the plugin is not loaded, as the route does while the channel is off: 404.
 */
@ApiTags('channels')
@ApiExtraModels(HttpRunResultDto)
@Controller('channels/http')
// Named as the controller that served the route was, so the operationId stays `HttpChannelController_receive`.
export class HttpChannelController {
  @Post('messages')
  @HttpCode(200)
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
  receive(): never {
    // Reached only when the http plugin is not loaded (plugins switched off): the channel is then not running.
    throw new AppError(ErrorCode.NotFound, 'the http channel is not enabled');
  }
}

/** The route's OpenAPI description, for the gateway's document (docs/plugins.md#bundled-plugins). */
@Module({ controllers: [HttpChannelController] })
export class HttpChannelRouteDocsModule {}
