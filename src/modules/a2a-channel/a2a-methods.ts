import { A2A_LEGACY_METHODS, A2A_METHODS } from '../../common/a2a-protocol';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

/** The operations this channel implements. */
export type A2aOperation =
  'sendMessage' | 'sendStreamingMessage' | 'subscribeToTask' | 'getTask' | 'cancelTask' | 'listTasks' | 'getExtendedAgentCard';

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
]);

/**
 * The push-notification methods. The card says `pushNotifications: false`, and for that case the
 * specification names its own error: -32003 PushNotificationNotSupportedError.
 */
const PUSH_METHODS = new Set([
  'CreateTaskPushNotificationConfig',
  'SetTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'ListTaskPushNotificationConfig',
  'DeleteTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
]);

/** The operation behind a method name; throws -32003 for the push-notification methods and -32601 for anything else. */
export function resolveA2aMethod(method: string): A2aOperation {
  const operation = IMPLEMENTED.get(method);
  if (operation) return operation;
  if (PUSH_METHODS.has(method)) {
    throw new AppError(
      ErrorCode.PushNotificationNotSupported,
      'Push notifications are not supported: this agent does not send them; poll GetTask',
    );
  }
  throw new AppError(ErrorCode.MethodNotFound, 'Method not found');
}

/** Method names answered with -32003 (for docs and tests). */
export function pushNotificationMethods(): string[] {
  return [...PUSH_METHODS];
}
