import { IsOptional, IsString } from 'class-validator';
import { AgentsConfig } from './agents.schema';
import { BudgetConfig } from './budgets.schema';
import { ChannelsConfig } from './channels.schema';
import { GatewayConfig } from './gateway.schema';
import { McpConfig } from './mcp.schema';
import { MemoryConfig } from './memory.schema';
import { ModelsConfig } from './models.schema';
import { PluginsConfig } from './plugins.schema';
import { BindingConfig, SessionConfig, ToolsConfig } from './routing.schema';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, NestedArray, NestedObject, StrictObject } from './schema-decorators';

/** The root of openclaw.json. Every nested class is strict: unknown keys are errors. */
@StrictObject('clawgate gateway configuration (openclaw.json).')
export class OpenClawConfig {
  @IsOptional()
  @IsString()
  @Describe('Path or URL of this JSON Schema, for editors.')
  $schema?: string;

  @IsOptional() @NestedObject(() => GatewayConfig) gateway?: GatewayConfig;
  @IsOptional() @NestedObject(() => AgentsConfig) agents?: AgentsConfig;
  @IsOptional() @NestedArray(() => BindingConfig) @Default(CONFIG_DEFAULTS.bindings) bindings?: BindingConfig[];
  @IsOptional() @NestedObject(() => ToolsConfig) tools?: ToolsConfig;
  @IsOptional() @NestedObject(() => SessionConfig) session?: SessionConfig;
  @IsOptional() @NestedObject(() => MemoryConfig) memory?: MemoryConfig;
  @IsOptional() @NestedObject(() => ModelsConfig) models?: ModelsConfig;
  @IsOptional() @NestedObject(() => ChannelsConfig) channels?: ChannelsConfig;
  @IsOptional() @NestedObject(() => PluginsConfig) plugins?: PluginsConfig;
  @IsOptional() @NestedObject(() => McpConfig) mcp?: McpConfig;
  @IsOptional() @NestedArray(() => BudgetConfig) @Default(CONFIG_DEFAULTS.budgets) budgets?: BudgetConfig[];
}
