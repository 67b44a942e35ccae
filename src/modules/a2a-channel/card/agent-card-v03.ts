import type { AgentCard, AgentCardSignature } from './agent-card.types';

/** The A2A 0.3 card fields this gateway publishes at `/.well-known/agent.json` (names as 0.3 clients read them). */
export interface V03AgentCard {
  protocolVersion: typeof V03_CARD_PROTOCOL_VERSION;
  name: string;
  description: string;
  version: string;
  /** The JSON-RPC endpoint; 0.3 names one main interface and lists every interface again. */
  url: string;
  preferredTransport: 'JSONRPC';
  additionalInterfaces: Array<{ url: string; transport: 'JSONRPC' }>;
  capabilities: { streaming: boolean; pushNotifications: boolean; stateTransitionHistory: boolean };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentCard['skills'];
  securitySchemes: { bearer: { type: 'http'; scheme: 'bearer' } };
  security: Array<{ bearer: string[] }>;
  supportsAuthenticatedExtendedCard: boolean;
  /** 0.3 has the field too (AgentCardSignature, the same JWS form): added as the card is served. */
  signatures?: AgentCardSignature[];
}

/** How 0.3 agents state their version on the card (the 0.3 schema's own value). */
export const V03_CARD_PROTOCOL_VERSION = '0.3.0';

/**
 * The 1.0 card as a 0.3 client expects it: the same agent, endpoint, skills and bearer scheme, spelled the
 * 0.3 way. The endpoint is the same `/a2a/v1`, which answers 0.3 calls in 0.3 form (docs/a2a.md#protocol-versions).
 */
export function toV03AgentCard(card: AgentCard): V03AgentCard {
  const url = card.supportedInterfaces[0].url;
  // 0.3 lists the main interface again, and only interfaces that answer 0.3: JSON-RPC translates each call. The
  // HTTP+JSON binding is 1.0 only (REST_A2A_VERSIONS): a 0.3 HTTP+JSON client appends `/v1/…` to the URL, sends 0.3
  // proto JSON (`content`, not `parts`) and reads `{code}` errors, so listing it would send such a client to an
  // interface it cannot use (docs/decisions.md#a2a-channel).
  const additionalInterfaces = card.supportedInterfaces.flatMap((i) =>
    i.protocolBinding === 'JSONRPC' ? [{ url: i.url, transport: i.protocolBinding }] : [],
  );
  return {
    protocolVersion: V03_CARD_PROTOCOL_VERSION,
    name: card.name,
    description: card.description,
    version: card.version,
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces,
    // Truthful as on the 1.0 card; tasks carry no history, so there is no state-transition history either.
    capabilities: {
      streaming: card.capabilities.streaming,
      pushNotifications: card.capabilities.pushNotifications,
      stateTransitionHistory: false,
    },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    security: [{ bearer: [] }],
    // 0.3 says it at the top level; agent/getAuthenticatedExtendedCard answers in 0.3 form.
    supportsAuthenticatedExtendedCard: card.capabilities.extendedAgentCard === true,
  };
}
