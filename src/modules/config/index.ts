export { ConfigWatcher, WRITE_STABILITY_MS } from './config-watcher.service';
export { ConfigModule } from './config.module';
export { ConfigStore } from './config.store';
export { ConfigIssueDto } from './dto/config-responses.dto';
export type { ConfigIssue } from './pipeline/config-issue';
export type { LoadResult } from './config.types';
export type {
  A2aChannelSettings,
  A2aPeerSettings,
  A2aFilePolicy,
  ChatCompletionsKey,
  ChatCompletionsSettings,
  EndpointKey,
  KeyedEndpointSettings,
  McpEndpointSettings,
  ClusterSettings,
  DmScope,
  GatewaySettings,
  HttpChannelSettings,
  McpServerSettings,
  McpSettings,
  McpTransport,
  MemorySettings,
  MetricsSettings,
  ModelApi,
  ModelProviderSettings,
  ModelsSettings,
  ProviderModelSettings,
  NormalizedConfig,
  BudgetSettings,
  PeerKind,
  PluginsSettings,
  ResolvedAgent,
  SubagentLimit,
  SubagentLimits,
  ToolApprovalSettings,
  ResolvedBinding,
  RuntimeSnapshot,
  SessionToolPolicies,
  SessionVisibility,
  SandboxMode,
  ToolPolicy,
  TelemetrySettings,
  TlsSettings,
  StateSettings,
} from './config.types';
export type {
  CatalogPlugin,
  CatalogState,
  ChannelSetupField,
  ManifestChannel,
  PluginCatalog,
  PluginManifest,
  PluginSource,
} from './plugins/plugin-catalog.types';
export { exposedAgents } from './exposed-agents';
export { GATEWAY_OPTIONS, locateConfig } from './gateway-options';
export type { GatewayOptions } from './gateway-options';
export { isReservedModelProviderId, providerApiKey } from './normalize/model-providers';
export { pluginMcpServerSettings } from './normalize/plugin-mcp-server';
export type { PluginMcpServerResult } from './normalize/plugin-mcp-server';
export { ConfigLoadError, formatConfigIssue, toDottedPath } from './pipeline/config-issue';
export { legacyLayoutMigration } from './openclaw/legacy-layout-migration';
export { unknownKeyRemoval } from './openclaw/unknown-key-removal';
export { loadConfig } from './pipeline/load-config';
export * as configPipelineSteps from './pipeline/pipeline-steps';
export { MODEL_REF_PATTERN } from './schema/agents.schema';
export { PEER_NAME_INPUT_PATTERN, PEER_NAME_PATTERN } from './schema/channels.schema';
export { buildConfigJsonSchema } from './schema/export-schema';
export { composeConfigSchema } from './schema/compose-schema';
export { planRemovePluginEntry, planSetPluginEnabled } from './plugins/plugin-edits';
export { MANIFEST_FILES, readManifest } from './plugins/read-manifest';
export type { ManifestRead } from './plugins/read-manifest';
export { renderCompatibilityDoc } from './openclaw/compatibility-doc';
export { PEER_KINDS } from './schema/routing.schema';
export { ConfigWriter } from './writer/config-writer.service';
export type { FileChanges, FilesWriteResult } from './writer/config-writer.service';
export { mergePatchFiles } from './writer/merge-patch-files';
export type { ConfigFileText } from './writer/merge-patch-files';
export type { ChangeSummarizer, ReloadTrigger } from './config.store';
export { invalidConfig } from './config-admin.service';
export { applyEditPlan, editConfigFile, parseRoot } from './writer/edit-config-file';
export { mergePatchEdits } from './writer/merge-patch-edits';
export { applyJson5Edits } from './writer/json5-edit';
export { restoreRedactedSecrets } from './writer/restore-redacted';
export { locateIssues } from './writer/locate-issues';
export type { EditPlan } from './writer/edit-config-file';
export type { Json5Edit, JsonPath } from './writer/json5-edit';
export { CONFIG_DEFAULTS } from './config-defaults';
export { RESERVED_KEY_MESSAGE, reservedKeyIssues } from './pipeline/reserved-keys';
