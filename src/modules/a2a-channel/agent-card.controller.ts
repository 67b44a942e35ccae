import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { A2A_PROTOCOL_VERSION } from '../../common/a2a-protocol';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ConfigStore } from '../config';
import { ProblemDto } from '../../common/errors/problem.dto';
import { matchesIfNoneMatch, renderAgentCard } from './agent-card';
import { requestOrigin } from './request-origin';

const CARD_EXAMPLE = {
  name: 'Support Bot',
  description: 'clawgate multi-agent gateway. Each skill is one agent; send plain-text tasks with SendMessage and poll GetTask.',
  version: '0.1.0',
  supportedInterfaces: [
    { url: 'https://claw.example.com/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION },
    { url: 'https://claw.example.com/a2a/v1', protocolBinding: 'HTTP+JSON', protocolVersion: A2A_PROTOCOL_VERSION },
  ],
  capabilities: { streaming: false, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'support', name: 'support', description: 'Agent support.', tags: ['clawgate'] }],
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
};

/** Public A2A discovery (docs/a2a.md#agent-card): the same card on the current and the legacy well-known path. */
@ApiTags('a2a')
@Controller('.well-known')
export class AgentCardController {
  constructor(private readonly config: ConfigStore) {}

  @Get(['agent-card.json', 'agent.json'])
  @ApiOperation({
    summary: 'The A2A 1.0 Agent Card (public; also at /.well-known/agent.json)',
    description:
      'One skill per exposed agent (`channels.a2a.exposeAgents`, default all). The JSON-RPC endpoint URL uses ' +
      '`channels.a2a.advertisedUrl`, else `gateway.publicUrl`, else the request (Host header; X-Forwarded-Proto only from ' +
      '`gateway.trustedProxies`). Cache-Control max-age=300 and a strong ETag; If-None-Match answers 304.',
  })
  @ApiOkResponse({ description: 'The card.', schema: { type: 'object' }, example: CARD_EXAMPLE })
  @ApiResponse({ status: 304, description: 'If-None-Match matched the current ETag.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: '`channels.a2a.enabled` is not true.' })
  card(@Req() req: Request, @Res() res: Response): void {
    const snapshot = this.config.current();
    const { a2a } = snapshot.config.channels;
    if (!a2a.enabled) throw new AppError(ErrorCode.NotFound, 'the A2A channel is not enabled');
    const origin =
      a2a.advertisedUrl ??
      snapshot.config.gateway.publicUrl?.replace(/\/+$/, '') ??
      requestOrigin(req, snapshot.config.gateway.trustedProxies);
    const card = renderAgentCard(snapshot.config, origin);
    res.setHeader('Cache-Control', 'max-age=300');
    res.setHeader('ETag', card.etag);
    // The origin comes from the request unless configured, so caches must keep cards per Host.
    if (!a2a.advertisedUrl && !snapshot.config.gateway.publicUrl) res.setHeader('Vary', 'Host, X-Forwarded-Proto');
    if (matchesIfNoneMatch(req.headers['if-none-match'], card.etag)) {
      res.status(304).end();
      return;
    }
    res.status(200).type('application/json').send(card.body);
  }
}
