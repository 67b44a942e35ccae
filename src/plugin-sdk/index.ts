/**
 * `clawgate/plugin-sdk`: what a plugin imports. `definePlugin` only gives the object its types; a plain
 * `{ register }` exported by a module loads the same. See docs/plugins.md.
 */
import type { PluginDefinition } from './plugin-api';

export type * from './plugin-api';

export function definePlugin<T extends PluginDefinition>(definition: T): T {
  return definition;
}
