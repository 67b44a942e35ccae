import { Module } from '@nestjs/common';
import { ConfigStore, GATEWAY_OPTIONS, type GatewayOptions } from '../config';
import { RoutingModule } from '../routing';
import { RuntimeModule } from '../runtime';
import { A2aAdminController } from './a2a-admin.controller';
import { A2aAdminService } from './a2a-admin.service';
import { A2aAttachments } from './a2a-attachments';
import { A2aTaskCounts } from './a2a-task-counts';
import { A2aChannelAdapter } from './a2a-channel.adapter';
import { A2aHttpEndpoint } from './a2a-http.endpoint';
import { A2aOperations } from './a2a-operations.service';
import { A2aRestEndpoint } from './a2a-rest.endpoint';
import { A2aRpcService } from './a2a-rpc.service';
import { A2aTaskService } from './a2a-task.service';
import { A2aTaskStore, taskDatabasePath } from './a2a-task.store';
import { AgentCardController } from './agent-card.controller';
import { A2A_CLOCK, Clock, SystemClock } from './clock';
import { ExtendedAgentCardService } from './extended-agent-card';
import { RATE_LIMITER, SlidingWindowRateLimiter } from './rate-limiter';
import { RequestInputTool } from './request-input.tool';
import { configuredRetention } from './task-retention';
import { TASK_STORE } from './task-store.port';
import { A2aTaskStreams } from './a2a-task-streams.service';
import { TaskEventBus } from './task-event-bus';
import { A2aPushConfigs } from './a2a-push-configs.service';
import { PUSH_SIGNING_KEY, PushDeliverer, PushWakeup } from './push-deliverer';
import { PushSigningKey, pushSigningKeyPath } from './push-signing-key';
import { PUSH_STORE, PushStore } from './push-store';

/**
 * The inbound A2A v1.0 channel: the public Agent Card, the JSON-RPC and HTTP+JSON endpoints (served ahead of
 * express by mountA2aEndpoint, before the global body parsers), the durable task store, the admin views and the `a2a`
 * channel adapter. ConfigStore, GATEWAY_OPTIONS and ChannelRegistry come from global modules.
 * Described in docs/a2a.md#a2a-v10-inbound-channel.
 */
@Module({
  imports: [RoutingModule, RuntimeModule],
  controllers: [AgentCardController, A2aAdminController],
  providers: [
    { provide: A2A_CLOCK, useClass: SystemClock },
    { provide: RATE_LIMITER, useFactory: (clock: Clock) => new SlidingWindowRateLimiter(clock), inject: [A2A_CLOCK] },
    TaskEventBus,
    PushWakeup,
    {
      provide: TASK_STORE,
      // Every committed task event reaches the streams of its task through the bus; queued pushes wake the deliverer.
      useFactory: (options: GatewayOptions, config: ConfigStore, bus: TaskEventBus, wakeup: PushWakeup) =>
        new A2aTaskStore(taskDatabasePath(options.stateDir), configuredRetention(config), {
          onEvents: bus.publish,
          onPushQueued: wakeup.wake,
        }),
      inject: [GATEWAY_OPTIONS, ConfigStore, TaskEventBus, PushWakeup],
    },
    { provide: PUSH_STORE, useFactory: (tasks: A2aTaskStore) => new PushStore(tasks), inject: [TASK_STORE] },
    {
      provide: PUSH_SIGNING_KEY,
      useFactory: (options: GatewayOptions) => new PushSigningKey(pushSigningKeyPath(options.stateDir)),
      inject: [GATEWAY_OPTIONS],
    },
    A2aPushConfigs,
    PushDeliverer,
    A2aAttachments,
    A2aTaskService,
    A2aTaskStreams,
    ExtendedAgentCardService,
    RequestInputTool,
    A2aOperations,
    A2aRpcService,
    A2aRestEndpoint,
    A2aHttpEndpoint,
    A2aAdminService,
    A2aChannelAdapter,
    A2aTaskCounts,
  ],
  exports: [A2aHttpEndpoint, A2aTaskCounts],
})
export class A2aChannelModule {}
