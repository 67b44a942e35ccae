import { isPlainObject } from '../../../common/is-record';
import type { EditPlan } from '../writer/edit-config-file';

/**
 * The edit that switches a plugin on or off: `plugins.entries.<id>.enabled`, with whichever of `plugins`,
 * `entries` and the entry is missing written around it (the writer sets values, it does not create parents).
 * For the CLI's `plugins enable|disable` and the admin API alike.
 */
export function planSetPluginEnabled(id: string, enabled: boolean): EditPlan {
  return (root) => {
    const plugins = root.plugins;
    if (!isPlainObject(plugins)) return [{ op: 'set', path: ['plugins'], value: { entries: { [id]: { enabled } } } }];
    const entries = plugins.entries;
    if (!isPlainObject(entries)) return [{ op: 'set', path: ['plugins', 'entries'], value: { [id]: { enabled } } }];
    if (!isPlainObject(entries[id])) return [{ op: 'set', path: ['plugins', 'entries', id], value: { enabled } }];
    return [{ op: 'set', path: ['plugins', 'entries', id, 'enabled'], value: enabled }];
  };
}

/** The edit that removes `plugins.entries.<id>` (its switch and its config); nothing when the file has no such entry. */
export function planRemovePluginEntry(id: string): EditPlan {
  return (root) => {
    const plugins = root.plugins;
    const entries = isPlainObject(plugins) ? plugins.entries : undefined;
    if (!isPlainObject(entries) || !(id in entries)) return [];
    return [{ op: 'remove', path: ['plugins', 'entries', id] }];
  };
}
