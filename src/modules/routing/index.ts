export { bindingTier, DEFAULT_ACCOUNT_ID, namesPeer, resolveRoute } from './route-resolver';
export type { InboundMessage, RouteResult, RouteTier } from './route-resolver';
export { RoutingModule } from './routing.module';
export { RoutingService } from './routing.service';
