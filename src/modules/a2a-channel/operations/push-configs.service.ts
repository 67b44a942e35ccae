import { Inject, Injectable } from '@nestjs/common';
import type { A2aWireVersion } from '../../../common/a2a-protocol';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { ConfigStore } from '../../config';
import { A2aTaskService } from './task.service';
import { invalidParams } from '../protocol/errors';
import { type CreatePushConfigInput, MAX_PUSH_CONFIGS_PER_TASK, type PushConfigRefInput, readPushConfig } from '../push/push-config-params';
import { PUSH_STORE, type PushConfigRow, type PushStore } from '../store/push-store.port';

const CONFIG_NOT_FOUND = 'Push notification config not found';

/**
 * Create/Get/List/DeleteTaskPushNotificationConfig (docs/a2a-push.md): a peer registers where the events of its own
 * tasks are to be POSTed — only at URLs its operator allowed (`channels.a2a.peers.<name>.pushUrls`) — and reads or
 * removes those registrations. Another peer's task is -32001, as everywhere. Deliveries: PushDeliverer.
 */
@Injectable()
export class A2aPushConfigs {
  constructor(
    private readonly config: ConfigStore,
    @Inject(A2aTaskService) private readonly tasks: Pick<A2aTaskService, 'ownStoredTask'>,
    @Inject(PUSH_STORE) private readonly push: PushStore,
  ) {}

  async create(peer: string, { taskId, config }: CreatePushConfigInput, wire: A2aWireVersion): Promise<PushConfigRow> {
    const task = await this.tasks.ownStoredTask(peer, taskId);
    const input = readPushConfig(config, this.peerSettings(peer), wire);
    const saved = await this.push.save(task, input, MAX_PUSH_CONFIGS_PER_TASK);
    if (saved === 'full') throw invalidParams(`a task has at most ${MAX_PUSH_CONFIGS_PER_TASK} push notification configs`);
    if (saved === 'no-task') throw new AppError(ErrorCode.TaskNotFound, 'Task not found', [{ taskId }]);
    return saved;
  }

  async get(peer: string, ref: PushConfigRefInput): Promise<PushConfigRow> {
    const seq = await this.taskSeq(peer, ref.taskId);
    const row = await this.push.get(seq, ref.id);
    if (!row) throw new AppError(ErrorCode.TaskNotFound, CONFIG_NOT_FOUND, [{ taskId: ref.taskId }]);
    return row;
  }

  async list(peer: string, ref: PushConfigRefInput): Promise<PushConfigRow[]> {
    return this.push.list(await this.taskSeq(peer, ref.taskId));
  }

  /** Idempotent: a config that is already gone is deleted all the same (the task must still be the caller's). */
  async remove(peer: string, ref: PushConfigRefInput): Promise<void> {
    await this.push.remove(await this.taskSeq(peer, ref.taskId), ref.id);
  }

  private async taskSeq(peer: string, taskId: string): Promise<number> {
    const task = await this.tasks.ownStoredTask(peer, taskId);
    const seq = await this.push.taskSeq(task.id);
    if (seq === undefined) throw new AppError(ErrorCode.TaskNotFound, 'Task not found', [{ taskId }]);
    return seq;
  }

  private peerSettings(peer: string) {
    const settings = this.config.current().config.channels.a2a.peers[peer];
    if (!settings) throw new AppError(ErrorCode.Unauthenticated, 'unknown peer');
    return settings;
  }
}
