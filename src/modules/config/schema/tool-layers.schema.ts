import { IsArray, IsOptional, IsString } from 'class-validator';
import { Describe, NestedObject, StrictObject } from './schema-decorators';

/**
 * The narrowing levels of OpenClaw's tool policy that clawgate applies per session (docs/configuration.md#tools):
 * each only takes tools away from what the agent's own policy gives; deny wins, a non-empty allow list is allow-only.
 */
@StrictObject('Tools of sandboxed sessions: narrows what the agent gives them (deny wins; a non-empty allow is allow-only).')
export class SandboxToolPolicyConfig {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('The only tools a sandboxed session may use (of those its agent allows); names, group:<name>, * patterns.')
  allow?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Tools no sandboxed session may use.')
  deny?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe(
    "Added to allow when it is set. clawgate has no default sandbox allowlist (a sandboxed session has its agent's tools), so on its own it restricts nothing.",
  )
  alsoAllow?: string[];
}

@StrictObject('Tools of sandboxed sessions.')
export class ToolsSandboxConfig {
  @IsOptional() @NestedObject(() => SandboxToolPolicyConfig) tools?: SandboxToolPolicyConfig;
}

@StrictObject('Tools of sub-agent sessions (started by sessions_spawn): narrows what their agent gives them.')
export class SubagentToolPolicyConfig {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('The only tools a spawned session may use (of those its agent allows); names, group:<name>, * patterns.')
  allow?: string[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('Tools no spawned session may use.')
  deny?: string[];
}

@StrictObject('Tools of sub-agent sessions.')
export class ToolsSubagentsConfig {
  @IsOptional() @NestedObject(() => SubagentToolPolicyConfig) tools?: SubagentToolPolicyConfig;
}
