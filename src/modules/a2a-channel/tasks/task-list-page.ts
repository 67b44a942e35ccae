import { parseListTasksParams } from '../protocol/method-params';
import { type ListTasksResult, toListedTask } from '../model/task';
import { decodePageToken, encodePageToken } from './task-page-token';
import type { TaskStore } from '../store/task-store.port';

/**
 * ListTasks: the calling peer's tasks only, most recently updated first, a page at a time; `nextPageToken` is "" on the
 * last page; an unreadable page token is -32602.
 */
export async function listTasksPage(store: TaskStore, peer: string, params: unknown): Promise<ListTasksResult> {
  const input = parseListTasksParams(params);
  const page = await store.page({
    peer,
    contextId: input.contextId,
    state: input.state,
    updatedSince: input.updatedSince,
    after: input.pageToken === undefined ? undefined : decodePageToken(input.pageToken),
    limit: input.pageSize,
  });
  return {
    tasks: page.tasks.map((task) => toListedTask(task, input.includeArtifacts, input.historyLength)),
    nextPageToken: page.next ? encodePageToken(page.next) : '',
    pageSize: input.pageSize,
    totalSize: page.total,
  };
}
