import type { ListTasksInput } from '../protocol/method-params';
import type { A2aTask } from '../model/task';
import { decodePageToken, encodePageToken } from './task-page-token';
import type { TaskStore } from '../store/task-store.port';

/** A page of ListTasks: the tasks as the gateway keeps them, and how the caller asked to see each (artifacts, history). */
export interface TaskListPage {
  tasks: A2aTask[];
  /** "" on the last page. */
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
  includeArtifacts: boolean;
  /** Messages of each task's history to include; unset: none. */
  historyLength?: number;
}

/**
 * ListTasks: the calling peer's tasks only, most recently updated first, a page at a time; `nextPageToken` is "" on the
 * last page; an unreadable page token is -32602.
 */
export async function listTasksPage(store: TaskStore, peer: string, input: ListTasksInput): Promise<TaskListPage> {
  const page = await store.page({
    peer,
    contextId: input.contextId,
    state: input.state,
    updatedSince: input.updatedSince,
    after: input.pageToken === undefined ? undefined : decodePageToken(input.pageToken),
    limit: input.pageSize,
  });
  return {
    tasks: page.tasks,
    nextPageToken: page.next ? encodePageToken(page.next) : '',
    pageSize: input.pageSize,
    totalSize: page.total,
    includeArtifacts: input.includeArtifacts,
    ...(input.historyLength !== undefined ? { historyLength: input.historyLength } : {}),
  };
}
