import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { ConfigStore, type StateSettings } from '../config';

/**
 * Which store this process keeps A2A tasks in (`gateway.state`): read from the config once it is loaded, at the first
 * use, and kept — the key takes effect at a restart (a reload only lists it in `pendingRestart`). What depends on it:
 * the task store (task-store-selection.ts), and push notifications, which live beside the tasks in SQLite only.
 */
@Injectable()
export class TaskBackend {
  private fixed?: StateSettings;

  constructor(private readonly config: ConfigStore) {}

  settings(): StateSettings {
    return (this.fixed ??= this.config.current().config.gateway.state);
  }

  /** Push configs and their outbox are tables of the SQLite task database (docs/decisions.md#state-on-postgresql). */
  pushSupported(): boolean {
    return this.settings().backend === 'sqlite';
  }

  /** The specification's PushNotificationNotSupportedError while tasks are in PostgreSQL. */
  assertPushSupported(): void {
    if (this.pushSupported()) return;
    throw new AppError(
      ErrorCode.PushNotificationNotSupported,
      'Push notifications are not available on this gateway: its A2A tasks are stored in PostgreSQL (gateway.state.backend "postgres")',
    );
  }
}
