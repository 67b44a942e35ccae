/** The normalized `plugins` section: which plugins may run; what was found is the snapshot's catalog. */

/** `plugins` (docs/plugins.md): what may run and each plugin's settings; what was found is the snapshot's catalog. */
export interface PluginsSettings {
  enabled: boolean;
  /** Absent: no allow list (every plugin the other settings enable may run). */
  allow?: string[];
  deny: string[];
  /** Absolute, `~` expanded, in the order written. */
  load: { paths: string[] };
  /** By plugin id: `config` as written (after `${VAR}`), checked against the plugin's manifest. */
  entries: Record<string, { enabled?: boolean; config?: Record<string, unknown> }>;
}
