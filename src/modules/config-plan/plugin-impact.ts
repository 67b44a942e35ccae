import { isDeepStrictEqual } from 'node:util';
import type { CatalogPlugin, CatalogState, PluginCatalog } from '../config';

/** A plugin whose state changes: found or gone (null), enabled, disabled, refused. */
export interface PluginStateChange {
  id: string;
  before: CatalogState | null;
  after: CatalogState | null;
  /** Why it is not enabled after the change (the catalog's reason); null when it is, or is gone. */
  reason: string | null;
}

/** A plugin whose settings change (its `plugins.entries.<id>.config` or a `channels.<id>` it provides); never the values. */
export interface PluginConfigChange {
  id: string;
  /** Its manifest says `restartRequired`: the running plugin keeps its old settings until a restart. */
  restartRequired: boolean;
}

export interface PluginImpact {
  stateChanged: PluginStateChange[];
  configChanged: PluginConfigChange[];
}

/**
 * What a change does to the plugins, from the two catalogs: which ones get enabled, disabled, refused, found or
 * lost, and which enabled ones get other settings (and whether that waits for a restart). Names only: a plugin's
 * config may hold its secrets.
 */
export function pluginImpact(before: PluginCatalog, after: PluginCatalog): PluginImpact {
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort();
  const stateChanged: PluginStateChange[] = [];
  const configChanged: PluginConfigChange[] = [];
  for (const id of ids) {
    const was = before.get(id);
    const now = after.get(id);
    if (was?.state !== now?.state) {
      stateChanged.push({
        id,
        before: was?.state ?? null,
        after: now?.state ?? null,
        reason: now?.state === 'enabled' ? null : (now?.reason ?? null),
      });
    } else if (now?.state === 'enabled' && was && !sameSettings(was, now)) {
      configChanged.push({ id, restartRequired: now.manifest?.restartRequired === true });
    }
  }
  return { stateChanged, configChanged };
}

function sameSettings(a: CatalogPlugin, b: CatalogPlugin): boolean {
  return isDeepStrictEqual(a.config, b.config) && isDeepStrictEqual(a.channels, b.channels);
}
