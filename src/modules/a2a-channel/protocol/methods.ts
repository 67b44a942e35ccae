import { A2A_LEGACY_METHODS, A2A_METHODS } from '../../../common/a2a-protocol';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';

/** The operations this channel implements. */
export type A2aOperation =
  | 'sendMessage'
  | 'sendStreamingMessage'
  | 'subscribeToTask'
  | 'getTask'
  | 'cancelTask'
  | 'listTasks'
  | 'getExtendedAgentCard'
  | 'createPushConfig'
  | 'getPushConfig'
  | 'listPushConfigs'
  | 'deletePushConfig';

/** The operations answered with a stream of events (SSE) rather than one result. */
export function isStreamingOperation(operation: A2aOperation): boolean {
  return operation === 'sendStreamingMessage' || operation === 'subscribeToTask';
}

/** A2A 1.0 names and their A2A 0.3 aliases. A Map, so names like `constructor` never hit a prototype. */
const IMPLEMENTED = new Map<string, A2aOperation>([
  [A2A_METHODS.sendMessage, 'sendMessage'],
  [A2A_LEGACY_METHODS.sendMessage, 'sendMessage'],
  [A2A_METHODS.sendStreamingMessage, 'sendStreamingMessage'],
  [A2A_LEGACY_METHODS.sendStreamingMessage, 'sendStreamingMessage'],
  [A2A_METHODS.subscribeToTask, 'subscribeToTask'],
  [A2A_LEGACY_METHODS.subscribeToTask, 'subscribeToTask'],
  [A2A_METHODS.getTask, 'getTask'],
  [A2A_LEGACY_METHODS.getTask, 'getTask'],
  [A2A_METHODS.cancelTask, 'cancelTask'],
  [A2A_LEGACY_METHODS.cancelTask, 'cancelTask'],
  [A2A_METHODS.listTasks, 'listTasks'],
  [A2A_LEGACY_METHODS.listTasks, 'listTasks'],
  [A2A_METHODS.getExtendedAgentCard, 'getExtendedAgentCard'],
  [A2A_LEGACY_METHODS.getExtendedAgentCard, 'getExtendedAgentCard'],
  ['CreateTaskPushNotificationConfig', 'createPushConfig'],
  // The name an earlier 1.0 draft used, still sent by some clients.
  ['SetTaskPushNotificationConfig', 'createPushConfig'],
  ['tasks/pushNotificationConfig/set', 'createPushConfig'],
  ['GetTaskPushNotificationConfig', 'getPushConfig'],
  ['tasks/pushNotificationConfig/get', 'getPushConfig'],
  ['ListTaskPushNotificationConfigs', 'listPushConfigs'],
  ['ListTaskPushNotificationConfig', 'listPushConfigs'],
  ['tasks/pushNotificationConfig/list', 'listPushConfigs'],
  ['DeleteTaskPushNotificationConfig', 'deletePushConfig'],
  ['tasks/pushNotificationConfig/delete', 'deletePushConfig'],
]);

/** The operation behind a method name, undefined when there is none. */
export function a2aOperationOf(method: string): A2aOperation | undefined {
  return IMPLEMENTED.get(method);
}

/** The operation behind a method name; -32601 for anything else. */
export function resolveA2aMethod(method: string): A2aOperation {
  const operation = IMPLEMENTED.get(method);
  if (operation) return operation;
  throw new AppError(ErrorCode.MethodNotFound, 'Method not found');
}

/** Every method name answered (1.0, its aliases and the 0.3 names), for docs and tests. */
export function implementedA2aMethods(): string[] {
  return [...IMPLEMENTED.keys()];
}
