import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '../../../common/errors/app-error';
import { ConfigStore } from '../../config';
import {
  A2aPeerListDto,
  A2aTaskDto,
  A2aTaskListDto,
  A2aTaskSummaryDto,
  DEFAULT_TASK_LIST_LIMIT,
  ListA2aTasksQueryDto,
} from './dto/admin.dto';
import type { A2aTask } from '../model/task';
import { TASK_STORE, TaskStore } from '../store/task-store.port';
import { A2aTaskService } from '../operations/task.service';
import { DEFAULT_PUSH_LIST_LIMIT, ListPushDeliveriesQueryDto, PushDeliveryListDto } from './dto/push-admin.dto';
import { PUSH_STORE, type PushStore } from '../store/push-store.port';

/** Operator views of the A2A channel: tasks of every peer, and the peers without their secrets. */
@Injectable()
export class A2aAdminService {
  constructor(
    private readonly config: ConfigStore,
    @Inject(TASK_STORE) private readonly store: TaskStore,
    private readonly tasks: A2aTaskService,
    @Inject(PUSH_STORE) private readonly push: PushStore,
  ) {}

  /** The push outbox: what is pending, delivered and failed, with the last error; URLs without their query. */
  async listPushDeliveries(query: ListPushDeliveriesQueryDto): Promise<PushDeliveryListDto> {
    const [rows, counts] = await Promise.all([this.push.listed(query.state, query.limit ?? DEFAULT_PUSH_LIST_LIMIT), this.push.counts()]);
    const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());
    return {
      counts,
      deliveries: rows.map((row) => ({
        id: row.seq,
        peer: row.peer,
        taskId: row.task_id,
        configId: row.config_id,
        url: withoutQuery(row.url),
        event: row.n,
        state: row.state,
        attempts: row.attempts,
        ...(row.state === 'pending' ? { nextAttemptAt: iso(row.next_at) } : {}),
        ...(row.last_error ? { lastError: row.last_error } : {}),
        createdAt: new Date(row.created_at).toISOString(),
        ...(row.done_at !== null ? { doneAt: iso(row.done_at) } : {}),
      })),
    };
  }

  async listTasks(query: ListA2aTasksQueryDto): Promise<A2aTaskListDto> {
    const tasks = await this.store.list({
      peer: query.peer,
      state: query.state,
      contextId: query.contextId,
      limit: query.limit ?? DEFAULT_TASK_LIST_LIMIT,
    });
    return { count: tasks.length, tasks: tasks.map(summary) };
  }

  async getTask(id: string): Promise<A2aTaskDto> {
    const task = await this.store.get(id);
    if (!task) throw notFound(`no A2A task with id ${JSON.stringify(id)}`);
    return { ...summary(task), ...(task.artifact ? { artifact: { ...task.artifact } } : {}) };
  }

  /** Cancels a running task of any peer, as the peer's CancelTask would (404 unknown, 400 already over). */
  async cancelTask(id: string): Promise<A2aTaskDto> {
    const task = await this.tasks.cancelAsOperator(id);
    return { ...summary(task), ...(task.artifact ? { artifact: { ...task.artifact } } : {}) };
  }

  /** Names and capabilities only: tokens never leave the config. */
  listPeers(): A2aPeerListDto {
    const { enabled, peers } = this.config.current().config.channels.a2a;
    return {
      enabled,
      peers: Object.values(peers).map((p) => ({ name: p.name, usable: p.usable, hasUrl: !!p.url, hasOutboundToken: !!p.outboundToken })),
    };
  }
}

function summary(task: A2aTask): A2aTaskSummaryDto {
  return {
    id: task.id,
    peer: task.peer,
    contextId: task.contextId,
    ...(task.agentId ? { agentId: task.agentId } : {}),
    ...(task.sessionKey ? { sessionKey: task.sessionKey } : {}),
    messageId: task.messageId,
    state: task.state,
    ...(task.statusMessage ? { statusMessage: { messageId: task.statusMessage.messageId, text: task.statusMessage.text } } : {}),
    ...(task.runId ? { runId: task.runId } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    updatedAt: new Date(task.updatedAt).toISOString(),
    hasReply: !!task.artifact,
  };
}

function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
