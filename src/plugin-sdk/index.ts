/**
 * `clawgate/plugin-sdk`: what a plugin imports. `definePlugin` only gives the object its types; a plain
 * `{ register }` exported by a module loads the same. See docs/plugins.md.
 */
import type { PluginDefinition } from './plugin-api';

export type * from './plugin-api';
export type * from './plugin-channel-api';
export type * from './plugin-key-gate-api';
export type * from './plugin-provider-api';
// What a tool's `execute` throws to give the model a status (`forbidden`, `not_found`, `timeout`, else `error`);
// the gateway maps it by its code, so an `AppError` of another copy of this package maps the same.
export { AppError } from '../common/errors/app-error';
export { ErrorCode } from '../common/errors/error-code';

export function definePlugin<T extends PluginDefinition>(definition: T): T {
  return definition;
}
