export { GuardedTransport } from './guarded-transport';
export type { ConfiguredDestination } from './guarded-transport';
export type { GuardedFetch } from './guarded-fetch';
export { OutboundError } from './outbound-error';
export { OutboundModule } from './outbound.module';
export { agentMaySendToPeers, outboundPeerNames, outboundPeerRefusal } from './outbound-peers';
