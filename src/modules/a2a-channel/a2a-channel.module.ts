import { Logger, Module } from '@nestjs/common';
import { ConfigStore, GATEWAY_OPTIONS, type GatewayOptions } from '../config';
import { RoutingModule } from '../routing';
import { RuntimeModule } from '../runtime';
import { ApprovalsModule } from '../approvals';
import { ClusterModule, ClusterService } from '../cluster';
import { InProcessRateLimitWindows } from '../../common/rate-limit/rate-limit-windows';
import { SlidingWindowRateLimiter } from '../../common/rate-limit/sliding-window-rate-limiter';
import { A2aAdminController } from './admin/admin.controller';
import { A2aAdminService } from './admin/admin.service';
import { A2aAttachments } from './attachments/attachments';
import { A2aTaskCounts } from './store/task-counts';
import { A2aHttpEndpoint } from './bindings/json-rpc/json-rpc.endpoint';
import { A2aOperations, PEER_RATE_LIMIT_NAMESPACE, RATE_LIMITER } from './operations/operations.service';
import { A2aRestEndpoint } from './bindings/rest/rest.endpoint';
import { A2aRpcService } from './bindings/json-rpc/json-rpc.service';
import { A2aTaskService } from './operations/task.service';
import { A2aTaskStore, taskDatabasePath } from './store/sqlite/sqlite-task.store';
import { AgentCardController } from './bindings/agent-card.controller';
import { A2A_CLOCK, Clock, SystemClock } from './model/clock';
import { AgentCardSigner } from './push/agent-card-signature';
import { ExtendedAgentCardService } from './operations/extended-agent-card';
import { RequestInputTool } from './operations/request-input.tool';
import { configuredRetention } from './store/task-retention';
import { TASK_STORE } from './store/task-store.port';
import { A2aTaskStreams } from './operations/task-streams.service';
import { TaskEventBus } from './streaming/task-event-bus';
import { A2aPushConfigs } from './operations/push-configs.service';
import { PUSH_SIGNING_KEY, PushDeliverer, PushWakeup } from './push/push-deliverer';
import { PushSigningKey, pushSigningKeyPath } from './push/push-signing-key';
import { PUSH_STORE } from './store/push-store.port';
import { SqlitePushStore } from './store/sqlite/sqlite-push.store';
import { hostname } from 'node:os';
import { postgresTarget } from '../../common/storage/postgres-errors';
import { storeFor } from '../../common/storage/store-for';
import { PgTaskStore } from './store/postgres/pg-task.store';
import { TASK_BACKEND_STORES, type TaskBackendStores } from './store/task-backend';
import { sharedTaskEvents } from './replicas/shared-task-events';
import { RemoteTaskCancels } from './replicas/remote-task-cancels';
import { RemoteTaskInputs } from './replicas/remote-task-inputs';
import { OrphanedTaskSweeper } from './replicas/orphaned-task-sweeper';
import { GatewayMetrics } from '../metrics';
import { taskStateLabel } from './operations/request-log';

/**
 * The inbound A2A v1.0 channel: the public Agent Card, the JSON-RPC and HTTP+JSON endpoints (served ahead of
 * express by mountA2aEndpoint, before the global body parsers), the durable task store, and the admin views. The
 * channel `a2a` itself (its place in the channel registry, its setup fields) is the bundled plugin a2a's
 * (src/bundled-plugins/a2a/), which also decides whether this module serves: the config pipeline keeps
 * `channels.a2a.enabled` false while that plugin is disabled. ConfigStore and GATEWAY_OPTIONS come from global modules.
 * Described in docs/a2a.md#a2a-v10-inbound-channel.
 */
@Module({
  imports: [RoutingModule, RuntimeModule, ClusterModule, ApprovalsModule],
  controllers: [AgentCardController, A2aAdminController],
  providers: [
    { provide: A2A_CLOCK, useClass: SystemClock },
    {
      provide: RATE_LIMITER,
      // In-process per peer; with gateway.cluster one window per peer in Redis for all replicas.
      useFactory: (clock: Clock, cluster: ClusterService) =>
        cluster.rateLimitWindows(PEER_RATE_LIMIT_NAMESPACE, new InProcessRateLimitWindows(new SlidingWindowRateLimiter(clock))),
      inject: [A2A_CLOCK, ClusterService],
    },
    TaskEventBus,
    PushWakeup,
    {
      provide: TASK_BACKEND_STORES,
      // The stores gateway.state names (the other backend is never opened). Every committed task event reaches the
      // streams of its task through the bus; queued pushes wake the deliverer. In PostgreSQL a task's owner is this
      // process (its replica id, leased in Redis with gateway.cluster) and its state dir names the tasks it may fail at
      // the next start on that dir; with gateway.cluster the task events also go to the other replicas (the cluster is
      // joined after the graph is built, so the fan-out is asked for when used). The task service closes the store.
      useFactory: (
        options: GatewayOptions,
        config: ConfigStore,
        bus: TaskEventBus,
        wakeup: PushWakeup,
        metrics: GatewayMetrics,
        cluster: ClusterService,
      ) =>
        storeFor<TaskBackendStores>(config.current().config.gateway.state, {
          sqlite: () => {
            const tasks = new A2aTaskStore(taskDatabasePath(options.stateDir), configuredRetention(config), {
              onEvents: bus.publish,
              onPushQueued: wakeup.wake,
              onState: (state) => metrics.a2aTask(taskStateLabel(state)),
            });
            return { tasks, push: new SqlitePushStore(tasks) };
          },
          postgres: async (url) => {
            const tasks = await PgTaskStore.open(
              url,
              configuredRetention(config),
              { owner: cluster.replicaId, stateDir: `${hostname()}:${options.stateDir}`, leased: () => cluster.mode === 'cluster' },
              {
                onEvents: sharedTaskEvents(
                  bus,
                  () => cluster.taskEventFanout(),
                  (id) => tasks.follow(id),
                ),
                onPushQueued: wakeup.wake,
              },
            );
            new Logger('a2a').log(`A2A tasks are stored in PostgreSQL at ${postgresTarget(url)}`);
            return { tasks, push: tasks.push, pushKey: tasks.pushKey };
          },
        }),
      inject: [GATEWAY_OPTIONS, ConfigStore, TaskEventBus, PushWakeup, GatewayMetrics, ClusterService],
    },
    { provide: TASK_STORE, useFactory: (stores: TaskBackendStores) => stores.tasks, inject: [TASK_BACKEND_STORES] },
    { provide: PUSH_STORE, useFactory: (stores: TaskBackendStores) => stores.push, inject: [TASK_BACKEND_STORES] },
    {
      provide: PUSH_SIGNING_KEY,
      // The state dir's key file, or with tasks in PostgreSQL the one key every replica of that database signs with.
      useFactory: (options: GatewayOptions, stores: TaskBackendStores) =>
        new PushSigningKey(pushSigningKeyPath(options.stateDir), () => Promise.resolve(stores.pushKey)),
      inject: [GATEWAY_OPTIONS, TASK_BACKEND_STORES],
    },
    A2aPushConfigs,
    PushDeliverer,
    A2aAttachments,
    RemoteTaskCancels,
    RemoteTaskInputs,
    A2aTaskService,
    OrphanedTaskSweeper,
    A2aTaskStreams,
    AgentCardSigner,
    ExtendedAgentCardService,
    RequestInputTool,
    A2aOperations,
    A2aRpcService,
    A2aRestEndpoint,
    A2aHttpEndpoint,
    A2aAdminService,
    A2aTaskCounts,
  ],
  exports: [A2aHttpEndpoint, A2aTaskCounts],
})
export class A2aChannelModule {}
