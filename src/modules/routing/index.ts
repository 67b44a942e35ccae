export { DEFAULT_ACCOUNT_ID } from './route-resolver';
export type { InboundMessage } from './route-resolver';
export { RoutingModule } from './routing.module';
export { RoutingService } from './routing.service';
