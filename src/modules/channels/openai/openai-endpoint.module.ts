import { Module } from '@nestjs/common';
import { RuntimeModule } from '../../runtime';
import { SessionsModule } from '../../sessions';
import { ChatCompletionsService } from './chat-completions.service';
import { OpenAiChannelAdapter } from './openai-channel.adapter';
import { OpenAiEndpoint } from './openai-endpoint';

/**
 * The OpenAI-compatible endpoint (`gateway.http.endpoints.chatCompletions`): `/v1/chat/completions`, `/v1/models`
 * and the `openai` adapter in the (global) ChannelRegistry. See docs/openai-endpoint.md.
 */
@Module({
  imports: [RuntimeModule, SessionsModule],
  providers: [ChatCompletionsService, OpenAiEndpoint, OpenAiChannelAdapter],
})
export class OpenAiEndpointModule {}
