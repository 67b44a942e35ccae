import { Logger } from '@nestjs/common';
import type { TaskState } from '../../common/a2a-protocol';
import type { ArtifactChunk, TaskEvent } from './task-events';
import type { A2aTask, TaskTransition } from './task-model';
import type { PushKeyStore } from './push-key-store.port';
import type { PushStore } from './push-store.port';
import type { TaskBackend } from './task-backend';
import type { OwnedTasks, OwnedTasksSource } from './task-ownership.port';
import type { PeerAgentCount, SweepOutcome, TaskListFilter, TaskPage, TaskPageQuery, TaskStore } from './task-store.port';

/** A backend's stores: its tasks, the push configs and outbox written in the same database, and a shared push key. */
export interface StoresOfBackend {
  tasks: TaskStore;
  push: PushStore;
  /** Replicas sharing the backend sign pushes with one key kept here; absent: the state dir's key file. */
  pushKey?: PushKeyStore;
}

/**
 * The TASK_STORE of the module: the SQLite store or a PostgreSQL one, chosen at the first call. Providers are built
 * before the config is loaded, so the choice cannot be made in the factory; the first call (the task service's
 * failUnsettled at start) comes after it. From then on every call goes straight to the chosen store. A PostgreSQL
 * server that cannot be reached fails that first call, and so the start. The push store of the same backend is
 * reached through `pushStore()` (push-store-selection.ts).
 */
export class SelectedTaskStore implements TaskStore, OwnedTasksSource {
  private chosen?: StoresOfBackend;
  private shared?: OwnedTasks;
  private choosing?: Promise<StoresOfBackend>;
  private readonly logger = new Logger('a2a');

  constructor(
    private readonly backend: TaskBackend,
    private readonly sqlite: StoresOfBackend,
    private readonly openPostgres: (url: string) => Promise<StoresOfBackend & { tasks: TaskStore & OwnedTasks }>,
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
  ownerOf(id: string): Promise<string | undefined> {
    return this.use((s) => s.ownerOf?.(id) ?? Promise.resolve(undefined));
  }
  /** Known once the store is chosen (after the start); undefined for a store of this replica alone. */
  get owner(): string | undefined {
    return this.chosen?.tasks.owner;
  }

  /** The push store of the chosen backend (chosen now, when this is the first call). */
  pushStore(): Promise<PushStore> {
    if (this.chosen) return Promise.resolve(this.chosen.push);
    return (this.choosing ??= this.choose()).then((chosen) => chosen.push);
  }

  /** The push signing key's store when the chosen backend is shared by replicas; undefined: the key file. */
  async pushKeyStore(): Promise<PushKeyStore | undefined> {
    return (this.chosen ?? (await (this.choosing ??= this.choose()))).pushKey;
  }

  /** The tasks by owner while they are in PostgreSQL (shared by replicas); undefined with SQLite or before the choice. */
  ownedTasks(): OwnedTasks | undefined {
    return this.shared;
  }

  /** Closes the chosen store, and the SQLite one (push configs may have used it) when that was not the choice. */
  async close(): Promise<void> {
    const chosen = await this.choosing?.catch(() => undefined);
    if (chosen && chosen !== this.sqlite) await chosen.tasks.close();
    await this.sqlite.tasks.close();
  }

  private use<T>(fn: (store: TaskStore) => Promise<T>): Promise<T> {
    if (this.chosen) return fn(this.chosen.tasks);
    return (this.choosing ??= this.choose()).then((chosen) => fn(chosen.tasks));
  }

  private async choose(): Promise<StoresOfBackend> {
    const settings = this.backend.settings();
    if (settings.backend === 'postgres') {
      const stores = await this.openPostgres(settings.url);
      this.shared = stores.tasks;
      this.chosen = stores;
      this.logger.log(`A2A tasks are stored in PostgreSQL at ${this.describe(settings.url)}`);
    } else this.chosen = this.sqlite;
    return this.chosen;
  }
}
