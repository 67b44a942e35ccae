import { createHash } from 'node:crypto';
import { A2A_PROTOCOL_VERSION, type A2aWireVersion } from '../../../common/a2a-protocol';
import { exposedAgents, type NormalizedConfig } from '../../config';
import { toV03AgentCard } from './agent-card-v03';
import type { AgentCard } from './agent-card.types';

export interface RenderedCard {
  body: string;
  /** Strong validator over the exact body bytes. */
  etag: string;
}

export const A2A_ENDPOINT_PATH = '/a2a/v1';
const GATEWAY_VERSION = process.env.npm_package_version ?? '0.1.0';
/**
 * Fixed on purpose: the card is public, so nothing an operator wrote (agent descriptions, prompts) crosses
 * the discovery boundary — only agent ids and the first exposed agent's identity name. Authenticated peers
 * read the rest on the extended card (extended-agent-card.ts).
 */
const CARD_DESCRIPTION =
  'clawgate multi-agent gateway. Each skill is one agent; send tasks with SendMessage, or SendStreamingMessage to follow them as they run. ' +
  'Authenticated peers get the agents they can reach, described, from GetExtendedAgentCard.';

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
    // Truthful in both bindings: SendStreamingMessage and SubscribeToTask stream (with replay), push configs are kept and
    // delivered from a durable outbox (to the URLs each peer's operator allowed), GetExtendedAgentCard works — with the
    // tasks in SQLite or in PostgreSQL (the outbox is beside them either way).
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    defaultInputModes: inputModes(config),
    defaultOutputModes: ['text/plain'],
    skills: agents.map((a) => ({ id: a.id, name: a.id, description: `Agent ${a.id}.`, tags: ['clawgate'] })),
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    // No `list: []`: a default value, which the specification's canonical form of a signed card leaves out (§8.4.1).
    securityRequirements: [{ schemes: { bearer: {} } }],
  };
}

/** Text, plus the media types `channels.a2a.files` accepts in file parts (ranges such as `text/*` as written). */
function inputModes(config: NormalizedConfig): string[] {
  return [...new Set(['text/plain', ...config.channels.a2a.files.mediaTypes])];
}

/** Rendered cards per config object and origin; a snapshot is immutable, so its cards never go stale. */
const rendered = new WeakMap<NormalizedConfig, Map<string, RenderedCard>>();
/** Origins come from Host headers: bound the per-snapshot cache (both versions' cards) so odd hosts cannot grow it. */
const MAX_ORIGINS_PER_SNAPSHOT = 64;

/** The card in the version's form: 1.0 as built, 0.3 translated from it (agent-card-v03.ts). */
export function renderAgentCard(config: NormalizedConfig, origin: string, version: A2aWireVersion = '1.0'): RenderedCard {
  let byOrigin = rendered.get(config);
  if (!byOrigin) rendered.set(config, (byOrigin = new Map<string, RenderedCard>()));
  const key = `${version} ${origin}`;
  let card = byOrigin.get(key);
  if (!card) {
    const built = buildAgentCard(config, origin);
    const body = JSON.stringify(version === '0.3' ? toV03AgentCard(built) : built);
    card = { body, etag: cardEtag(body) };
    if (byOrigin.size >= MAX_ORIGINS_PER_SNAPSHOT) byOrigin.clear();
    byOrigin.set(key, card);
  }
  return card;
}

/** A strong validator over the exact body bytes. */
export function cardEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** True when an If-None-Match header names `etag` (or is `*`); weak validators match too (RFC 9110 weak comparison). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
