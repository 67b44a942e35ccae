import { IsArray, IsBoolean, IsObject, IsOptional, IsString, MinLength } from 'class-validator';
import { CONFIG_DEFAULTS } from '../config-defaults';
import { Default, Describe, NestedMap, NestedObject, StrictObject } from './schema-decorators';

/**
 * A plugin id: its key under `plugins.entries`, the `id` of its manifest and the prefix of its routes
 * (`/plugins/<id>/`), so it is URL-safe. OpenClaw's ids (`voice-call`, `memory-core`) fit, and so do the
 * upper-case placeholders its doctor leaves in files (`REMOVED_STALE_PLUGIN_REFERENCE`).
 */
export const PLUGIN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

@StrictObject("One plugin's settings; its config is checked against the configSchema of the plugin's manifest.")
export class PluginEntryConfig {
  @IsOptional()
  @IsBoolean()
  @Describe('false: the plugin never runs. true: a plugin found in the state dir\'s extensions/ may run (one found through plugins.load.paths runs unless false).')
  enabled?: boolean;

  @IsOptional()
  @IsObject()
  @Describe("The plugin's own settings, validated by the JSON Schema of its manifest (configSchema).", { type: 'object' })
  config?: Record<string, unknown>;
}

@StrictObject('Where plugins are looked for besides the state dir.')
export class PluginsLoadConfig {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @Describe('Plugin directories (each holding clawgate.plugin.json or openclaw.plugin.json), or directories of them; relative to this file, ~ expanded.')
  @Default(CONFIG_DEFAULTS.plugins.load.paths)
  paths?: string[];
}

@StrictObject('Plugins: what may run, where they are found, their settings (docs/plugins.md).')
export class PluginsConfig {
  @IsOptional()
  @IsBoolean()
  @Describe('false: no plugin runs (they are still found and their config checked).')
  @Default(CONFIG_DEFAULTS.plugins.enabled)
  enabled?: boolean;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('When set, only the plugins named here may run [no allow list].')
  allow?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Plugins that never run; wins over allow and entries.')
  @Default(CONFIG_DEFAULTS.plugins.deny)
  deny?: string[];

  @IsOptional() @NestedObject(() => PluginsLoadConfig) load?: PluginsLoadConfig;

  @IsOptional()
  @NestedMap(() => PluginEntryConfig, 'PluginEntryConfig', PLUGIN_ID_PATTERN)
  @Default(CONFIG_DEFAULTS.plugins.entries)
  entries?: Map<string, PluginEntryConfig>;
}
