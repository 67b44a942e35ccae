export { EndpointKeyGate } from './endpoint-key-gate';
export type { KeyGateEdge, KeyGateSettings, KeyGateVerdict } from './endpoint-key-gate';
export { agentsForKey, authenticateEndpointKey, keyMayUse } from './endpoint-keys';
