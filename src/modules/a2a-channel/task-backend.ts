import { Injectable } from '@nestjs/common';
import { ConfigStore, type StateSettings } from '../config';

/**
 * Which store this process keeps A2A tasks in (`gateway.state`): read from the config once it is loaded, at the first
 * use, and kept — the key takes effect at a restart (a reload only lists it in `pendingRestart`). What depends on it:
 * the task store (task-store-selection.ts) and the push store beside it (push-store-selection.ts).
 */
@Injectable()
export class TaskBackend {
  private fixed?: StateSettings;

  constructor(private readonly config: ConfigStore) {}

  settings(): StateSettings {
    return (this.fixed ??= this.config.current().config.gateway.state);
  }

  /** Several replicas may share the store (PostgreSQL). */
  shared(): boolean {
    return this.settings().backend === 'postgres';
  }
}
