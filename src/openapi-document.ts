import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ADMIN_SECURITY } from './common/auth/requires-role.decorator';
import { CLIENT_HEADER } from './modules/admin';
import { PROBLEM_CONTENT_TYPE } from './common/errors/problem-details';
import { HTTP_CHANNEL_SECURITY } from './bundled-plugins/http/http-route.docs';
import { METRICS_SECURITY } from './modules/health';
import { packageVersion } from './cli/package-version';

/**
 * The OpenAPI document served at /docs-json and published as schemas/openapi.json (`npm run openapi`). Every
 * response the test suite receives is checked against it (test/support/openapi-contract).
 */

/** The tags in the order a reader meets the gateway; an operation's tag must be one of these (tested). */
export const OPENAPI_TAGS: { name: string; description: string }[] = [
  {
    name: 'health',
    description: 'Liveness, readiness and the Prometheus metrics: no authentication (metrics: unless gateway.metrics.token).',
  },
  { name: 'admin', description: 'The caller as the admin API sees it: subject, role and how it signed in (the console asks).' },
  { name: 'cluster', description: 'Replicas of this gateway coordinated through Redis (gateway.cluster), with their config revisions.' },
  { name: 'config', description: 'openclaw.json: the served revision, validation of a candidate, reload and the dry-run plan.' },
  { name: 'agents', description: 'Agents and bindings, edited in openclaw.json (comments kept) under If-Match.' },
  { name: 'routing', description: 'Which agent and session an inbound message would reach (a dry run of the bindings).' },
  {
    name: 'topology',
    description:
      'The graph of channels, bindings, agents, agent-to-agent reach, memory grants and A2A peers, as JSON or SVG, and a plan drawn.',
  },
  { name: 'policy', description: 'Session visibility and the agent-to-agent policy: would one agent reach another?' },
  { name: 'sessions', description: 'Every agent’s sessions: entries, transcript history, JSONL export.' },
  { name: 'session tools', description: 'Act as a session: run its sessions_send and sessions_spawn tools.' },
  { name: 'runs', description: 'Agent runs: what one did (with its agent-to-agent exchange) and cancelling it.' },
  { name: 'memory', description: 'Per-agent memory collections: search, read a file, reindex.' },
  { name: 'channels', description: 'The http channel: send a message to an agent as an account and get its reply.' },
  { name: 'a2a', description: 'The A2A server: Agent Cards, the push signing keys, the tasks peers created and their push deliveries.' },
  { name: 'outbound', description: 'Configured A2A peers and sending them a message as an agent.' },
  { name: 'plugins', description: 'Plugins found or given in code: source, version, status and why, what they registered.' },
  {
    name: 'mcp',
    description: 'The MCP servers whose tools agents use: state, transport, tools, last error, settings with secrets redacted.',
  },
  { name: 'audit', description: 'The admin audit log: who changed what, a page at a time.' },
  { name: 'usage', description: 'Model tokens and cost per agent, session, A2A peer, key, channel account or model, over a window.' },
  { name: 'approvals', description: 'Tool calls that wait for an operator (tools.requiresApproval): list them, approve or deny.' },
];

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('clawgate admin API')
    .setDescription(
      'Operate a clawgate gateway: config, agents and bindings, routing dry-runs, policy checks, sessions ' +
        '(act as a session: send, spawn), A2A tasks and peers, the http channel, health and metrics. ' +
        'The A2A v1.0 endpoint itself (POST /a2a/v1 and its HTTP+JSON routes, peer bearer tokens) is not part of this API: see the ' +
        'Agent Card at /.well-known/agent-card.json and docs/a2a.md. ' +
        'Errors are application/problem+json. Authenticate with an admin bearer token (gateway.admin.tokens) or through ' +
        'the SSO proxy (gateway.admin.sso); each operation names the least role it needs in x-clawgate-role ' +
        '(viewer < operator < admin). Until admin authentication is configured the admin API answers on loopback only. ' +
        'A write (POST, PUT, PATCH, DELETE) must have a JSON body or the X-Clawgate-Client header, and is refused when a ' +
        'browser sends it from another site (docs/admin-security.md#cross-site-requests).',
    )
    .setVersion(packageVersion())
    // Both are opaque strings compared with the config (no JWT): no bearerFormat.
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: undefined, description: 'admin token (gateway.admin.tokens)' },
      ADMIN_SECURITY,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: undefined, description: 'http channel account token (channels.http.accounts)' },
      HTTP_CHANNEL_SECURITY,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: undefined, description: 'metrics token (gateway.metrics.token), when set' },
      METRICS_SECURITY,
    );
  for (const tag of OPENAPI_TAGS) builder.addTag(tag.name, tag.description);
  return problemsAsProblemJson(crossSiteRefusals(bodyParserRefusals(SwaggerModule.createDocument(app, builder.build()))));
}

type Operations = Record<
  string,
  {
    requestBody?: unknown;
    responses?: Record<string, { description?: string; content?: Record<string, unknown> }>;
    parameters?: Array<Record<string, unknown>>;
  }
>;
const PROBLEM_REF = { $ref: '#/components/schemas/ProblemDto' };

/**
 * The body parsers in front of every route that takes a JSON body (bootstrap.ts) refuse a body that is not JSON,
 * too deep or with a reserved key (400), or too large (413), before any handler runs: every such operation
 * answers them, so they are added here rather than on each handler.
 */
function bodyParserRefusals(document: OpenAPIObject): OpenAPIObject {
  const refusals: Record<string, string> = {
    '400': 'The body is not valid JSON, is nested too deep, or names a reserved key (detail says which).',
    '413': 'The body is larger than the limit.',
  };
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem as Operations)) {
      if (!operation?.requestBody || !operation.responses) continue;
      for (const [status, description] of Object.entries(refusals)) {
        operation.responses[status] ??= { description, content: { 'application/json': { schema: PROBLEM_REF } } };
      }
    }
  }
  return document;
}

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const CROSS_SITE_REFUSAL =
  'A write a page of another site could have made a browser send: Sec-Fetch-Site cross-site or same-site, an Origin ' +
  `that is not the gateway's, or neither a JSON body nor the ${CLIENT_HEADER} header (detail says which).`;

/**
 * The admin gate (request-forgery.ts) refuses, before any handler runs, an admin write that is cross-site or that an
 * HTML form could have sent: every such operation answers that 403 and takes the header, so both are added here
 * rather than on each handler. The header is required where no JSON body can stand in for it.
 */
function crossSiteRefusals(document: OpenAPIObject): OpenAPIObject {
  for (const [path, pathItem] of Object.entries(document.paths)) {
    if (!path.startsWith('/admin/')) continue;
    for (const [method, operation] of Object.entries(pathItem as Operations)) {
      if (!WRITE_METHODS.has(method) || !operation?.responses) continue;
      const forbidden = operation.responses['403'];
      if (forbidden) forbidden.description = `${forbidden.description ?? ''}\n\n${CROSS_SITE_REFUSAL}`.trim();
      else operation.responses['403'] = { description: CROSS_SITE_REFUSAL, content: { 'application/json': { schema: PROBLEM_REF } } };
      (operation.parameters ??= []).push({
        name: CLIENT_HEADER,
        in: 'header',
        required: !operation.requestBody,
        description:
          'Any value (`curl`, `cli`). Required unless the body is JSON: it tells the gateway an HTML form of another site ' +
          'did not send this request (docs/admin-security.md#cross-site-requests).',
        schema: { type: 'string', example: 'curl' },
      });
    }
  }
  return document;
}

/**
 * Every error body is problem+json (one writer, common/errors/problem-details.ts); the decorators name the
 * ProblemDto type, which @nestjs/swagger files under application/json (or under the operation's @ApiProduces type,
 * e.g. image/svg+xml). One rule here instead of a media type on every error decorator.
 */
function problemsAsProblemJson(document: OpenAPIObject): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as { responses?: Record<string, { content?: Record<string, unknown> }> }[]) {
      for (const response of Object.values(operation?.responses ?? {})) {
        const problem = Object.values(response.content ?? {}).find(
          (media) => (media as { schema?: { $ref?: string } }).schema?.$ref === PROBLEM_REF.$ref,
        );
        if (problem) response.content = { [PROBLEM_CONTENT_TYPE]: problem };
      }
    }
  }
  return document;
}
