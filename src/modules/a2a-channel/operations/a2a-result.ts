import type { AgentCard } from '../card/agent-card.types';
import type { V03AgentCard } from '../card/agent-card-v03';
import { type A2aTask, toListedTask, toWireTask } from '../model/task';
import type { WireCodec } from '../protocol/wire-codec';
import { toWirePushConfig } from '../push/push-config-params';
import type { PushConfigRow } from '../store/push-store.port';
import type { TaskListPage } from '../tasks/task-list-page';

/**
 * What one A2A call answered, as the domain has it: tasks as the gateway keeps them (A2aTask), a page of them, push
 * config rows. The binding renders it once, in the call's version (renderResult); the request log reads the task
 * straight from it.
 */
export type A2aResult =
  /** `historyLength`: how much of the task's history the caller asked to see (unset: all). */
  | { operation: 'sendMessage' | 'getTask'; task: A2aTask; historyLength?: number }
  | { operation: 'cancelTask'; task: A2aTask }
  | { operation: 'listTasks'; page: TaskListPage }
  /** Already in the call's version: a card is signed in the form the peer reads, so the card service renders it. */
  | { operation: 'getExtendedAgentCard'; card: AgentCard | V03AgentCard }
  | { operation: 'createPushConfig' | 'getPushConfig'; config: PushConfigRow }
  | { operation: 'listPushConfigs'; configs: PushConfigRow[] }
  | { operation: 'deletePushConfig' };

/** The result as the call's version has it on the wire: its A2A 1.0 form, through the version's codec. */
export function renderResult(result: A2aResult, codec: WireCodec): unknown {
  return codec.result(result.operation, wireFormOf(result));
}

function wireFormOf(result: A2aResult): unknown {
  switch (result.operation) {
    case 'sendMessage':
      return { task: toWireTask(result.task, result.historyLength) };
    case 'getTask':
      return toWireTask(result.task, result.historyLength);
    case 'cancelTask':
      return toWireTask(result.task);
    case 'listTasks': {
      const { tasks, includeArtifacts, historyLength, nextPageToken, pageSize, totalSize } = result.page;
      return { tasks: tasks.map((task) => toListedTask(task, includeArtifacts, historyLength)), nextPageToken, pageSize, totalSize };
    }
    case 'getExtendedAgentCard':
      return result.card;
    case 'createPushConfig':
    case 'getPushConfig':
      return toWirePushConfig(result.config);
    case 'listPushConfigs':
      // At most MAX_PUSH_CONFIGS_PER_TASK: always one page.
      return { configs: result.configs.map(toWirePushConfig), nextPageToken: '' };
    case 'deletePushConfig':
      return {};
    default: {
      const unknown: never = result;
      throw new Error(`no wire form for ${JSON.stringify(unknown)}`);
    }
  }
}
