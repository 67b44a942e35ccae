import { isRecord } from '../../../common/is-record';

/**
 * A2A 0.3's push-notification config shapes, translated to and from 1.0 (v03-wire.ts does the rest of 0.3):
 * 0.3 nests the config in `pushNotificationConfig`, names the task `id` in get/list/delete (the config
 * `pushNotificationConfigId`), and lists authentication `schemes` where 1.0 has one `scheme`.
 */

export type PushOperation = 'createPushConfig' | 'getPushConfig' | 'listPushConfigs' | 'deletePushConfig';

export function v03PushParamsToCore(operation: PushOperation, params: Record<string, unknown>): unknown {
  if (operation === 'createPushConfig') {
    const config = isRecord(params.pushNotificationConfig) ? params.pushNotificationConfig : {};
    const auth = isRecord(config.authentication) ? config.authentication : undefined;
    const schemes: unknown[] = Array.isArray(auth?.schemes) ? (auth.schemes as unknown[]) : [];
    return {
      taskId: params.taskId,
      ...config,
      ...(auth ? { authentication: { scheme: schemes[0], credentials: auth.credentials } } : {}),
    };
  }
  return { taskId: params.id, ...(params.pushNotificationConfigId !== undefined ? { id: params.pushNotificationConfigId } : {}) };
}

function configToV03(config: Record<string, unknown>): Record<string, unknown> {
  const { taskId, authentication, ...rest } = config;
  const scheme = isRecord(authentication) ? authentication.scheme : undefined;
  return { taskId, pushNotificationConfig: { ...rest, ...(scheme ? { authentication: { schemes: [scheme] } } : {}) } };
}

export function corePushResultToV03(operation: PushOperation, result: unknown): unknown {
  if (operation === 'deletePushConfig') return null;
  if (operation === 'listPushConfigs') return ((result as { configs: Array<Record<string, unknown>> }).configs ?? []).map(configToV03);
  return configToV03(result as Record<string, unknown>);
}
