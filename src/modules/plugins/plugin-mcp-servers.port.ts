import type { McpServerSettings } from '../config';

/**
 * Who runs the MCP servers plugins register (the mcp module, a layer above this one, attaches itself with
 * `PluginHost.attachMcpServers`): the host hands over each server once its plugin's `register` returned, with the
 * settings `mcp.servers.<name>` would have, and takes it back when the plugin unloads.
 */
export interface PluginMcpServerRunner {
  /** Whether `mcp.servers` of the applied config has this name (the config wins: a plugin may not take it). */
  configured(name: string): boolean;
  /** A server registered by an active plugin: connected (boot) or on demand (lazy), its tools registered. */
  addPluginServer(settings: McpServerSettings, pluginId: string): void;
  /** The plugin unloads: its tools leave the registry, its connection closes once its calls in flight have ended. */
  removePluginServer(name: string): Promise<void>;
}
