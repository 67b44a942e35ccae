import type { PluginSource } from '../config';

/** What `/admin/plugins` says of a plugin (docs/plugins.md#status). */
export type PluginStatus = 'active' | 'failed' | 'disabled' | 'refused';

/** What a loaded plugin registered, by name (routes as `METHOD /plugins/<id>/path`). */
export interface PluginRegistered {
  tools: string[];
  routes: string[];
  services: string[];
  hooks: string[];
  channels: string[];
  mcpServers: string[];
}

export interface PluginRecord {
  id: string;
  source: PluginSource;
  name?: string;
  description?: string;
  version?: string;
  /** The plugin's root directory; absent for one given in code. */
  root?: string;
  status: PluginStatus;
  /** Why it is disabled, refused or failed. */
  reason?: string;
  /** Errors of its code: the throw of register or a service's start, past ones of hooks are in the log and metrics. */
  errors: string[];
  /** What its manifest declares it will register (absent for a plugin given in code, which declares nothing). */
  declared?: { tools: string[]; providers: string[]; channels: string[]; mcpServers: string[] };
  registered: PluginRegistered;
  /** Its config, secrets replaced by `[redacted]`. */
  config: Record<string, unknown>;
  /** When it reached this status. */
  since: string;
}

export function nothingRegistered(): PluginRegistered {
  return { tools: [], routes: [], services: [], hooks: [], channels: [], mcpServers: [] };
}
