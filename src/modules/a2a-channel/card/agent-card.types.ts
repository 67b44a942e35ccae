import type { A2A_PROTOCOL_VERSION } from '../../../common/a2a-protocol';

/** The A2A 1.0 AgentCard fields this gateway publishes (proto JSON names, as `@a2a-js/sdk` reads them). */
export interface AgentCard {
  name: string;
  description: string;
  version: string;
  supportedInterfaces: Array<{ url: string; protocolBinding: 'JSONRPC' | 'HTTP+JSON'; protocolVersion: typeof A2A_PROTOCOL_VERSION }>;
  capabilities: { streaming: boolean; pushNotifications: boolean; extendedAgentCard: boolean };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: Array<{ id: string; name: string; description: string; tags: string[] }>;
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } };
  /** The bearer scheme with no scopes: `{}`, the proto JSON of an empty StringList (an empty `list` is a default value). */
  securityRequirements: Array<{ schemes: { bearer: Record<string, never> } }>;
  /** Added as the card is served (agent-card-signature.ts); never part of what is signed. */
  signatures?: AgentCardSignature[];
}

/** An A2A AgentCardSignature (a2a.proto): a JWS in flattened form, its payload (the card) detached. */
export interface AgentCardSignature {
  /** base64url of the protected header: `{alg: "ES256", kid, typ: "JOSE", jku}`. */
  protected: string;
  /** base64url of the ES256 signature. */
  signature: string;
}
