import { Global, Module } from '@nestjs/common';
import { GuardedTransport } from './guarded-transport';

/**
 * The one GuardedTransport of the process. Global so every module that calls out (the http channel's
 * webhooks, the A2A client) gets the same instance — one guard, one audit trail, one connection pool.
 */
@Global()
@Module({ providers: [GuardedTransport], exports: [GuardedTransport] })
export class OutboundTransportModule {}
