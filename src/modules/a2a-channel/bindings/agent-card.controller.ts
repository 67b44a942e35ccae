import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { A2A_PROTOCOL_VERSION, type A2aWireVersion } from '../../../common/a2a-protocol';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ConfigStore } from '../../config';
import { ProblemDto } from '../../../common/errors/problem.dto';
import { matchesIfNoneMatch, renderAgentCard } from '../card/agent-card';
import { AgentCardSigner } from '../push/agent-card-signature';
import { CardChangeTimes, notModifiedSince } from '../card/last-modified';
import { cardOrigin } from '../card/request-origin';
import { PUSH_SIGNING_KEY } from '../push/push-deliverer';
import type { PushSigningKey } from '../push/push-signing-key';

const CARD_EXAMPLE = {
  name: 'Support Bot',
  description:
    'clawgate multi-agent gateway. Each skill is one agent; send tasks with SendMessage, or SendStreamingMessage to follow them as they run. ' +
    'Authenticated peers get the agents they can reach, described, from GetExtendedAgentCard.',
  version: '0.1.0',
  supportedInterfaces: [
    { url: 'https://claw.example.com/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION },
    { url: 'https://claw.example.com/a2a/v1', protocolBinding: 'HTTP+JSON', protocolVersion: A2A_PROTOCOL_VERSION },
  ],
  capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
  defaultInputModes: ['text/plain', 'text/*', 'application/json'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'support', name: 'support', description: 'Agent support.', tags: ['clawgate'] }],
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: {} } }],
  signatures: [{ protected: 'eyJhbGciOiJFUzI1NiIsImtpZCI6I…', signature: 'MEUCIQ…' }],
};

const V03_CARD_EXAMPLE = {
  protocolVersion: '0.3.0',
  name: 'Support Bot',
  description: CARD_EXAMPLE.description,
  version: '0.1.0',
  url: 'https://claw.example.com/a2a/v1',
  preferredTransport: 'JSONRPC',
  additionalInterfaces: [{ url: 'https://claw.example.com/a2a/v1', transport: 'JSONRPC' }],
  capabilities: { streaming: true, pushNotifications: true, stateTransitionHistory: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: CARD_EXAMPLE.skills,
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
  security: [{ bearer: [] }],
  supportsAuthenticatedExtendedCard: true,
  signatures: CARD_EXAMPLE.signatures,
};

const CARD_NOTES =
  'One skill per exposed agent (`channels.a2a.exposeAgents`, default all). The JSON-RPC endpoint URL uses ' +
  '`channels.a2a.advertisedUrl`, else `gateway.publicUrl`, else the request (Host header; X-Forwarded-Proto only from ' +
  '`gateway.trustedProxies`). Cache-Control max-age=300, a strong ETag and Last-Modified (when the served card last ' +
  'changed); If-None-Match, or without it If-Modified-Since, answers 304. Signed: `signatures` holds a JWS (ES256, payload ' +
  'detached) over the card without `signatures`, canonicalized by JCS (RFC 8785); its protected header names the key ' +
  '(`kid`) and the key set (`jku`, /.well-known/a2a-push-jwks.json). See docs/a2a.md#signed-cards.';

/**
 * Public A2A discovery (docs/a2a.md#agent-card): the 1.0 card on the current well-known path, the same card
 * in its A2A 0.3 form on the older one.
 */
@ApiTags('a2a')
@Controller('.well-known')
export class AgentCardController {
  private readonly changeTimes = new CardChangeTimes();

  constructor(
    private readonly config: ConfigStore,
    @Inject(PUSH_SIGNING_KEY) private readonly pushKey: PushSigningKey,
    private readonly signer: AgentCardSigner,
  ) {}

  @Get('a2a-push-jwks.json')
  @ApiOperation({
    summary: 'The public key push deliveries and Agent Cards are signed with (a JSON Web Key Set; public)',
    description:
      'Every push notification POST carries `X-A2A-Push-Signature`: an ES256 JWT (kid from this set) whose claims bind it to ' +
      'the delivery: `aud` the URL, `request_body_sha256` the body, `task_id`, `event`, and a 5-minute `exp`. The Agent Cards ' +
      '(public and extended) carry a JWS by the same key in `signatures`. The key is made on first use and kept in the state ' +
      'dir (or, with tasks in PostgreSQL, in the database for every replica). See docs/a2a-push.md#signatures.',
  })
  @ApiOkResponse({
    description: 'The key set (RFC 7517).',
    content: {
      'application/jwk-set+json': {
        schema: { type: 'object', properties: { keys: { type: 'array', items: { type: 'object' } } }, required: ['keys'] },
        example: { keys: [{ kty: 'EC', crv: 'P-256', x: '…', y: '…', kid: '…', alg: 'ES256', use: 'sig' }] },
      },
    },
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: '`channels.a2a.enabled` is not true.' })
  async pushJwks(@Res() res: Response): Promise<void> {
    if (!this.config.current().config.channels.a2a.enabled) throw new AppError(ErrorCode.NotFound, 'the A2A channel is not enabled');
    res.setHeader('Cache-Control', 'max-age=3600');
    res
      .status(200)
      .type('application/jwk-set+json')
      .send(JSON.stringify(await this.pushKey.jwks()));
  }

  @Get('agent-card.json')
  @ApiOperation({ summary: 'The A2A 1.0 Agent Card (public)', description: CARD_NOTES })
  @ApiOkResponse({ description: 'The card.', schema: { type: 'object' }, example: CARD_EXAMPLE })
  @ApiResponse({
    status: 304,
    description: 'If-None-Match matched the current ETag, or (without it) If-Modified-Since is not before Last-Modified.',
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: '`channels.a2a.enabled` is not true.' })
  card(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res, '1.0');
  }

  @Get('agent.json')
  @ApiOperation({
    summary: 'The same Agent Card in its A2A 0.3 form (public)',
    description: `For A2A 0.3 clients: \`url\`, \`preferredTransport\`, \`protocolVersion: "0.3.0"\`. ${CARD_NOTES}`,
  })
  @ApiOkResponse({ description: 'The 0.3 card.', schema: { type: 'object' }, example: V03_CARD_EXAMPLE })
  @ApiResponse({
    status: 304,
    description: 'If-None-Match matched the current ETag, or (without it) If-Modified-Since is not before Last-Modified.',
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: '`channels.a2a.enabled` is not true.' })
  v03Card(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res, '0.3');
  }

  private async serve(req: Request, res: Response, version: A2aWireVersion): Promise<void> {
    const snapshot = this.config.current();
    const { a2a } = snapshot.config.channels;
    if (!a2a.enabled) throw new AppError(ErrorCode.NotFound, 'the A2A channel is not enabled');
    const origin = cardOrigin(snapshot.config, req);
    // Signed once per rendered card (per snapshot, version and origin), and per content across reloads.
    const card = await this.signer.signedRendering(renderAgentCard(snapshot.config, origin, version), origin);
    res.setHeader('Cache-Control', 'max-age=300');
    res.setHeader('ETag', card.etag);
    const changedAt = this.changeTimes.changedAt(`${version} ${origin}`, card.etag, snapshot.loadedAt);
    res.setHeader('Last-Modified', new Date(changedAt).toUTCString());
    // The origin comes from the request unless configured, so caches must keep cards per Host.
    if (!a2a.advertisedUrl && !snapshot.config.gateway.publicUrl) res.setHeader('Vary', 'Host, X-Forwarded-Proto');
    // RFC 9110 §13.2.2: If-None-Match, when sent, decides alone; If-Modified-Since counts only without it.
    const ifNoneMatch = req.headers['if-none-match'];
    const notModified =
      ifNoneMatch !== undefined
        ? matchesIfNoneMatch(ifNoneMatch, card.etag)
        : notModifiedSince(req.headers['if-modified-since'], changedAt);
    if (notModified) {
      res.status(304).end();
      return;
    }
    res.status(200).type('application/json').send(card.body);
  }
}
