import { Module } from '@nestjs/common';
import { RoutingController } from './routing.controller';
import { RoutingService } from './routing.service';

/**
 * Layer 1: inbound message → agent + session key (docs/routing.md#routing). ConfigStore comes from the
 * global ConfigModule.
 */
@Module({ controllers: [RoutingController], providers: [RoutingService], exports: [RoutingService] })
export class RoutingModule {}
