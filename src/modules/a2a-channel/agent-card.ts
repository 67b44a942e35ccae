import { createHash } from 'node:crypto';
import { A2A_PROTOCOL_VERSION } from '../../common/a2a-protocol';
import type { NormalizedConfig, ResolvedAgent } from '../config';

/** The A2A 1.0 AgentCard fields this gateway publishes (proto JSON names, as `@a2a-js/sdk` reads them). */
export interface AgentCard {
  name: string;
  description: string;
  version: string;
  supportedInterfaces: Array<{ url: string; protocolBinding: 'JSONRPC' | 'HTTP+JSON'; protocolVersion: typeof A2A_PROTOCOL_VERSION }>;
  capabilities: { streaming: boolean; pushNotifications: boolean };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: Array<{ id: string; name: string; description: string; tags: string[] }>;
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } };
  securityRequirements: Array<{ schemes: { bearer: { list: string[] } } }>;
}

export interface RenderedCard {
  body: string;
  /** Strong validator over the exact body bytes. */
  etag: string;
}

export const A2A_ENDPOINT_PATH = '/a2a/v1';
const GATEWAY_VERSION = process.env.npm_package_version ?? '0.1.0';
/**
 * Fixed on purpose: the card is public, so nothing an operator wrote (agent descriptions, prompts) crosses
 * the discovery boundary — only agent ids and the first exposed agent's identity name.
 */
const CARD_DESCRIPTION = 'clawgate multi-agent gateway. Each skill is one agent; send plain-text tasks with SendMessage and poll GetTask.';

/** Exposed agents per config object: read on every SendMessage, and a snapshot never changes. */
const exposedByConfig = new WeakMap<NormalizedConfig, ResolvedAgent[]>();

/** Agents published on the card and reachable by peers: `exposeAgents` in its order (configured ones only), else all. */
export function exposedAgents(config: NormalizedConfig): ResolvedAgent[] {
  const { exposeAgents } = config.channels.a2a;
  if (exposeAgents === null) return config.agents;
  let exposed = exposedByConfig.get(config);
  if (!exposed) {
    const byId = new Map(config.agents.map((a) => [a.id, a]));
    exposed = exposeAgents.flatMap((id) => byId.get(id) ?? []);
    exposedByConfig.set(config, exposed);
  }
  return exposed;
}

/**
 * The Agent Card (docs/a2a.md#agent-card). `origin` has no trailing slash and may carry a path prefix
 * (advertisedUrl behind a proxy).
 */
export function buildAgentCard(config: NormalizedConfig, origin: string): AgentCard {
  const agents = exposedAgents(config);
  return {
    name: agents[0]?.identity.name || 'clawgate',
    description: CARD_DESCRIPTION,
    version: GATEWAY_VERSION,
    // Both bindings at one URL (the specification allows reusing it): JSON-RPC is POST on it, HTTP+JSON the paths below it.
    // JSON-RPC first, the preferred interface, so clients that picked it before keep doing so.
    supportedInterfaces: [
      { url: `${origin}${A2A_ENDPOINT_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION },
      { url: `${origin}${A2A_ENDPOINT_PATH}`, protocolBinding: 'HTTP+JSON', protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    // Truthful: streaming answers UnsupportedOperation, push configs PushNotificationNotSupported (in both bindings).
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: agents.map((a) => ({ id: a.id, name: a.id, description: `Agent ${a.id}.`, tags: ['clawgate'] })),
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
}

/** Rendered cards per config object and origin; a snapshot is immutable, so its cards never go stale. */
const rendered = new WeakMap<NormalizedConfig, Map<string, RenderedCard>>();
/** Origins come from Host headers: bound the per-snapshot cache so odd hosts cannot grow it. */
const MAX_ORIGINS_PER_SNAPSHOT = 32;

export function renderAgentCard(config: NormalizedConfig, origin: string): RenderedCard {
  let byOrigin = rendered.get(config);
  if (!byOrigin) rendered.set(config, (byOrigin = new Map<string, RenderedCard>()));
  let card = byOrigin.get(origin);
  if (!card) {
    const body = JSON.stringify(buildAgentCard(config, origin));
    card = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    if (byOrigin.size >= MAX_ORIGINS_PER_SNAPSHOT) byOrigin.clear();
    byOrigin.set(origin, card);
  }
  return card;
}

/** True when an If-None-Match header names `etag` (or is `*`); weak validators match too (RFC 9110 weak comparison). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
