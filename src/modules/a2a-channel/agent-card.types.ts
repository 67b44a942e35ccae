import type { A2A_PROTOCOL_VERSION } from '../../common/a2a-protocol';

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
  securityRequirements: Array<{ schemes: { bearer: { list: string[] } } }>;
}
