import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents';
import { SessionsModule } from '../sessions';
import { ClusterModule } from '../cluster';
import { UsageModule } from '../usage';
import { ApprovalsModule } from '../approvals';
import { AgentRunner } from './agent-runner.service';
import { MODEL_PROVIDERS } from './model-provider.port';
import { PromptFileCache } from './prompt-file-cache';
import { ProviderRegistry } from './provider-registry';
import { AnthropicMessagesProvider } from './providers/anthropic-messages.provider';
import { OpenAiChatProvider } from './providers/openai-chat.provider';
import { OpenAiResponsesProvider } from './providers/openai-responses.provider';
import { RunCancelService } from './run-cancel.service';
import { RunsAdminController } from './runs-admin.controller';
import { RunTrees } from './run-tree';
import { ToolRegistry } from './tool-registry';
import { RunHooks } from './run-hooks';

/** Agent runs: lanes, model providers, the tool registry, and the operator's run cancel. */
@Module({
  imports: [AgentsModule, SessionsModule, ClusterModule, UsageModule, ApprovalsModule],
  controllers: [RunsAdminController],
  providers: [
    AgentRunner,
    RunCancelService,
    RunTrees,
    ProviderRegistry,
    ToolRegistry,
    RunHooks,
    // One per process: its directory watches are closed when the module is destroyed.
    PromptFileCache,
    // Echo is built into the registry; the HTTP providers are plugged in here (stateless, one instance each).
    {
      provide: MODEL_PROVIDERS,
      useFactory: () => [new OpenAiChatProvider(), new OpenAiResponsesProvider(), new AnthropicMessagesProvider()],
    },
  ],
  exports: [AgentRunner, ToolRegistry, RunHooks, ProviderRegistry, RunTrees],
})
export class RuntimeModule {}
