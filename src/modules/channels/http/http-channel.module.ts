import { Module } from '@nestjs/common';
import { RoutingModule } from '../../routing';
import { RuntimeModule } from '../../runtime';
import { SessionsModule } from '../../sessions';
import { HttpAccountGuard } from './http-account.guard';
import { HttpChannelAdapter } from './http-channel.adapter';
import { HttpChannelController } from './http-channel.controller';
import { HttpChannelService } from './http-channel.service';
import { HttpChannelGate } from './http-channel.gate';

/**
 * The generic http channel: inbound `POST /channels/http/messages` and the `http` adapter in the
 * (global) ChannelRegistry. ConfigStore comes from the global ConfigModule. See docs/channels.md#the-http-channel.
 */
@Module({
  imports: [RoutingModule, RuntimeModule, SessionsModule],
  controllers: [HttpChannelController],
  providers: [HttpChannelService, HttpChannelAdapter, HttpAccountGuard, HttpChannelGate],
  exports: [HttpChannelAdapter],
})
export class HttpChannelModule {}
