import { Logger } from '@nestjs/common';
import type { TaskState } from '../../common/a2a-protocol';
import type { ArtifactChunk, TaskEvent } from './task-events';
import type { A2aTask, TaskTransition } from './task-model';
import type { TaskBackend } from './task-backend';
import type { OwnedTasks, OwnedTasksSource } from './task-ownership.port';
import type { PeerAgentCount, SweepOutcome, TaskListFilter, TaskPage, TaskPageQuery, TaskStore } from './task-store.port';

/**
 * The TASK_STORE of the module: the SQLite store or a PostgreSQL one, chosen at the first call. Providers are built
 * before the config is loaded, so the choice cannot be made in the factory; the first call (the task service's
 * failUnsettled at start) comes after it. From then on every call goes straight to the chosen store. A PostgreSQL
 * server that cannot be reached fails that first call, and so the start.
 */
export class SelectedTaskStore implements TaskStore, OwnedTasksSource {
  private chosen?: TaskStore;
  private shared?: OwnedTasks;
  private choosing?: Promise<TaskStore>;
  private readonly logger = new Logger('a2a');

  constructor(
    private readonly backend: TaskBackend,
    private readonly sqlite: TaskStore,
    private readonly openPostgres: (url: string) => Promise<TaskStore & OwnedTasks>,
    private readonly describe: (url: string) => string,
  ) {}

  insert(task: A2aTask): Promise<void> {
    return this.use((s) => s.insert(task));
  }
  get(id: string): Promise<A2aTask | undefined> {
    return this.use((s) => s.get(id));
  }
  transition(id: string, change: TaskTransition, at: number): Promise<A2aTask | undefined> {
    return this.use((s) => s.transition(id, change, at));
  }
  appendArtifact(id: string, chunk: ArtifactChunk): Promise<boolean> {
    return this.use((s) => s.appendArtifact(id, chunk));
  }
  eventsAfter(id: string, after: number): Promise<TaskEvent[]> {
    return this.use((s) => s.eventsAfter(id, after));
  }
  list(filter: TaskListFilter): Promise<A2aTask[]> {
    return this.use((s) => s.list(filter));
  }
  page(query: TaskPageQuery): Promise<TaskPage> {
    return this.use((s) => s.page(query));
  }
  countsSince(peers: readonly string[], since: number): Promise<PeerAgentCount[]> {
    return this.use((s) => s.countsSince(peers, since));
  }
  failUnsettled(reason: (state: TaskState) => string, at: number): Promise<number> {
    return this.use((s) => s.failUnsettled(reason, at));
  }
  sweep(now: number, expiredReason: string): Promise<SweepOutcome> {
    return this.use((s) => s.sweep(now, expiredReason));
  }

  /** The tasks by owner while they are in PostgreSQL (shared by replicas); undefined with SQLite or before the choice. */
  ownedTasks(): OwnedTasks | undefined {
    return this.shared;
  }

  /** Closes the chosen store, and the SQLite one (push configs may have used it) when that was not the choice. */
  async close(): Promise<void> {
    const chosen = await this.choosing?.catch(() => undefined);
    if (chosen && chosen !== this.sqlite) await chosen.close();
    await this.sqlite.close();
  }

  private use<T>(fn: (store: TaskStore) => Promise<T>): Promise<T> {
    if (this.chosen) return fn(this.chosen);
    return (this.choosing ??= this.choose()).then(fn);
  }

  private async choose(): Promise<TaskStore> {
    const settings = this.backend.settings();
    if (settings.backend === 'postgres') {
      const store = await this.openPostgres(settings.url);
      this.shared = store;
      this.chosen = store;
      this.logger.log(`A2A tasks are stored in PostgreSQL at ${this.describe(settings.url)}`);
    } else this.chosen = this.sqlite;
    return this.chosen;
  }
}
