import { Logger } from '@nestjs/common';
import type { PluginLogger } from '../../plugin-sdk';

/**
 * A plugin's `api.logger`: the gateway's logger (every line passes the one secret masker on its way out) with the
 * context `plugin:<id>` and a `plugin` field the plugin's own fields cannot replace.
 */
export function pluginLogger(id: string): PluginLogger {
  const logger = new Logger(`plugin:${id}`);
  const line = (fields: Record<string, unknown> | undefined) => ({ ...(fields ?? {}), plugin: id });
  return {
    debug: (message, fields) => logger.debug(line(fields), String(message)),
    info: (message, fields) => logger.log(line(fields), String(message)),
    warn: (message, fields) => logger.warn(line(fields), String(message)),
    error: (message, fields) => logger.error(line(fields), String(message)),
  };
}
