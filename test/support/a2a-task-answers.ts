import type { A2aFilePolicy } from '../../src/modules/config';
import { toListedTask, toWireTask } from '../../src/modules/a2a-channel/model/task';
import type { AcceptOptions } from '../../src/modules/a2a-channel/tasks/accept-options';
import type { A2aTaskService } from '../../src/modules/a2a-channel/operations/task.service';
import {
  parseGetTaskParams,
  parseListTasksParams,
  parseSendMessageParams,
  parseTaskIdParams,
} from '../../src/modules/a2a-channel/protocol/method-params';

/**
 * The task service as a peer sees it through a binding: params read by the real readers, tasks answered in their A2A
 * 1.0 form by the real renderers — so a spec of the task lifecycle can send raw params and read wire tasks.
 */
export function taskAnswers(service: Pick<A2aTaskService, 'accept' | 'getTask' | 'cancelTask' | 'listTasks'>, files: A2aFilePolicy) {
  return {
    sendMessage: async (peer: string, params: unknown, options: AcceptOptions) => {
      const input = parseSendMessageParams(params, files);
      return { task: toWireTask(await service.accept(peer, input, options), input.historyLength) };
    },
    getTask: async (peer: string, params: unknown) => {
      const input = parseGetTaskParams(params);
      return toWireTask(await service.getTask(peer, input), input.historyLength);
    },
    cancelTask: async (peer: string, params: unknown) => toWireTask(await service.cancelTask(peer, parseTaskIdParams(params))),
    listTasks: async (peer: string, params: unknown) => {
      const page = await service.listTasks(peer, parseListTasksParams(params));
      return { ...page, tasks: page.tasks.map((task) => toListedTask(task, page.includeArtifacts, page.historyLength)) };
    },
  };
}
