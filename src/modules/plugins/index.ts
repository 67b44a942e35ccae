export { mountPluginRoutes } from './mount-plugin-routes';
export { PluginHost, PLUGIN_START_DEADLINE_MS, PLUGIN_STOP_DEADLINE_MS } from './plugin-host.service';
export { HOOK_BUDGET_MS, PLUGIN_HOOKS } from './plugin-hooks';
export type { PluginRecord, PluginStatus } from './plugin-record';
export { PluginsModule } from './plugins.module';
export type { PluginChannelOwner, PluginChannelRunner } from './plugin-channels.port';
export type { PluginMcpServerRunner } from './plugin-mcp-servers.port';
// Guards for calling plugin code the channels module shares: an error's message, and a deadline on a call.
export { messageOf } from './plugin-errors';
export { withDeadline } from './with-deadline';
