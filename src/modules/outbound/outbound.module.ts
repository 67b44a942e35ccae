import { Module } from '@nestjs/common';
import { RuntimeModule } from '../runtime';
import { SessionsModule } from '../sessions';
import { UsageModule } from '../usage';
import { A2aOutboundClient } from './a2a-outbound.client';
import { A2aSendController } from './a2a-send.controller';
import { A2aSendService } from './a2a-send.service';
import { OutboundTransportModule } from './outbound-transport.module';

/**
 * Outbound A2A (docs/outbound.md#1-sending-a-task-to-a-peer): the client, the `a2a_send` tool and
 * `POST /admin/a2a/peers/:name/send`.
 */
@Module({
  imports: [OutboundTransportModule, RuntimeModule, SessionsModule, UsageModule],
  controllers: [A2aSendController],
  providers: [A2aOutboundClient, A2aSendService],
  exports: [A2aOutboundClient],
})
export class OutboundModule {}
