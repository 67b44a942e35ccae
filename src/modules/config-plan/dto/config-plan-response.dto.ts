import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { ConfigIssueDto } from '../../config';

const ROUTE_TIERS = ['peer', 'guildId', 'teamId', 'accountId', 'accountId:*', 'channel', 'default'];

class PlanMatchedByDto {
  @ApiProperty({ enum: ROUTE_TIERS }) tier!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Position in bindings[]; null for the default agent.' }) bindingIndex!:
    number | null;
}

class PlanRouteOutcomeDto {
  @ApiProperty({ example: 'support' }) agentId!: string;
  @ApiProperty({ type: PlanMatchedByDto }) matchedBy!: PlanMatchedByDto;
}

class PlanRoutingEntryDto {
  @ApiProperty({
    enum: ['binding', 'default'],
    description: 'A message exactly matching a binding of either config, or one no binding matches.',
  })
  probe!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { channel: 'http', accountId: 'web', peer: { kind: 'direct', id: 'alice' } },
    description: 'The probe message (as for /admin/routing/resolve); null for the default route.',
  })
  inbound!: object | null;
  @ApiProperty({ type: PlanRouteOutcomeDto }) before!: PlanRouteOutcomeDto;
  @ApiProperty({ type: PlanRouteOutcomeDto }) after!: PlanRouteOutcomeDto;
  @ApiProperty({ description: 'Another agent or tier answers (a binding index that only shifted is not a change).' }) changed!: boolean;
}

class PlanPairDecisionDto {
  @ApiProperty() allowed!: boolean;
  @ApiProperty({ enum: ['visibility', 'policy'], nullable: true }) layer!: string | null;
  @ApiProperty({ example: 'tools.agentToAgent.enabled is not true' }) rule!: string;
}

class PlanAgentToAgentEntryDto {
  @ApiProperty({ example: 'main' }) from!: string;
  @ApiProperty({ example: 'support' }) to!: string;
  @ApiProperty({ type: PlanPairDecisionDto, nullable: true, description: 'Null when an agent of the pair is added: the pair appears.' })
  before!: PlanPairDecisionDto | null;
  @ApiProperty({ type: PlanPairDecisionDto, nullable: true, description: 'Null when an agent of the pair is removed: the pair vanishes.' })
  after!: PlanPairDecisionDto | null;
}

class PlanAgentsImpactDto {
  @ApiProperty({ type: [String], example: ['coding'], description: 'Agents only the candidate configures.' }) added!: string[];
  @ApiProperty({ type: [String], example: [], description: 'Agents only the served config configures.' }) removed!: string[];
}

class PlanMemoryGrantDto {
  @ApiProperty({ example: 'main', description: 'The agent that may search.' }) agent!: string;
  @ApiProperty({ example: 'family-notes' }) collection!: string;
  @ApiProperty({ example: '/srv/agents/family/notes' }) path!: string;
  @ApiProperty({ example: '**/*.md' }) pattern!: string;
  @ApiProperty({ type: String, nullable: true, example: 'family', description: 'The agent whose workspace or sessions the directory is.' })
  owner!: string | null;
}

class PlanMemoryImpactDto {
  @ApiProperty({ type: [PlanMemoryGrantDto] }) grantsAdded!: PlanMemoryGrantDto[];
  @ApiProperty({ type: [PlanMemoryGrantDto] }) grantsRemoved!: PlanMemoryGrantDto[];
}

/** A setting's value: any JSON value (a number, a flag, a list...). */
const ANY_VALUE: ApiPropertyOptions = {
  anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: {} }, { type: 'object' }],
  nullable: true,
};

class PlanValueChangeDto {
  @ApiProperty({ example: 'channels.a2a.rateLimitPerMinute' }) key!: string;
  @ApiPropertyOptional({ ...ANY_VALUE, description: 'The value before; absent when it was not set.', example: 60 }) before?: unknown;
  @ApiPropertyOptional({ ...ANY_VALUE, description: 'The value after; absent when it is no longer set.', example: 30 }) after?: unknown;
}

class PlanPeerTokenDto {
  @ApiProperty({ example: 'hermes' }) peer!: string;
  @ApiProperty({ enum: ['token', 'outboundToken'] }) field!: string;
  @ApiProperty({ enum: ['rotated', 'added', 'removed'], description: 'How it changed; the value is never shown.' }) change!: string;
}

class PlanExposedAgentsDto {
  @ApiProperty({ type: [String], nullable: true, description: 'channels.a2a.exposeAgents; null = all agents.' }) before!: string[] | null;
  @ApiProperty({ type: [String], nullable: true }) after!: string[] | null;
  @ApiProperty({ type: [String], description: 'Agents peers can newly reach.' }) added!: string[];
  @ApiProperty({ type: [String], description: 'Agents peers can no longer reach.' }) removed!: string[];
}

class PlanA2aImpactDto {
  @ApiProperty({ type: [String] }) peersAdded!: string[];
  @ApiProperty({ type: [String] }) peersRemoved!: string[];
  @ApiProperty({ type: [PlanPeerTokenDto] }) tokensRotated!: PlanPeerTokenDto[];
  @ApiProperty({ type: PlanExposedAgentsDto, nullable: true, description: 'Null when the reachable agents did not change.' })
  exposedAgents!: PlanExposedAgentsDto | null;
  @ApiProperty({
    type: [PlanValueChangeDto],
    description:
      "Other changed settings of the channel and its kept peers: enabled, advertised URL, rate limit, timeouts, kept tasks, file limits; a peer's url, protocol version and push URLs. Never a credential.",
  })
  limits!: PlanValueChangeDto[];
}

class PlanRoleChangeDto {
  @ApiProperty({ enum: ['viewer', 'operator', 'admin'] }) before!: string;
  @ApiProperty({ enum: ['viewer', 'operator', 'admin'] }) after!: string;
}

class PlanAdminTokenDto {
  @ApiProperty({ example: 'ci' }) name!: string;
  @ApiProperty({ enum: ['viewer', 'operator', 'admin'] }) role!: string;
}

class PlanAdminTokenChangeDto {
  @ApiProperty({ example: 'ci' }) name!: string;
  @ApiPropertyOptional({ type: PlanRoleChangeDto }) role?: PlanRoleChangeDto;
  @ApiPropertyOptional({ enum: ['rotated'], description: 'The token value changed (never shown).' }) token?: string;
}

class PlanRoleMappingDto {
  @ApiProperty({ example: 'sre' }) group!: string;
  @ApiProperty({ enum: ['viewer', 'operator', 'admin'] }) role!: string;
}

class PlanRoleMappingChangeDto {
  @ApiProperty({ example: 'sre' }) group!: string;
  @ApiProperty({ enum: ['viewer', 'operator', 'admin'] }) before!: string;
  @ApiProperty({ enum: ['viewer', 'operator', 'admin'] }) after!: string;
}

class PlanAdminImpactDto {
  @ApiProperty({ type: [PlanAdminTokenDto] }) tokensAdded!: PlanAdminTokenDto[];
  @ApiProperty({ type: [PlanAdminTokenDto] }) tokensRemoved!: PlanAdminTokenDto[];
  @ApiProperty({ type: [PlanAdminTokenChangeDto] }) tokensChanged!: PlanAdminTokenChangeDto[];
  @ApiProperty({ type: [PlanRoleMappingDto] }) ssoRoleMappingsAdded!: PlanRoleMappingDto[];
  @ApiProperty({ type: [PlanRoleMappingDto] }) ssoRoleMappingsRemoved!: PlanRoleMappingDto[];
  @ApiProperty({ type: [PlanRoleMappingChangeDto] }) ssoRoleMappingsChanged!: PlanRoleMappingChangeDto[];
  @ApiProperty({ type: [PlanValueChangeDto], description: 'Other gateway.admin.sso settings (no secrets among them).' })
  sso!: PlanValueChangeDto[];
}

class PlanPluginStateChangeDto {
  @ApiProperty({ example: 'weather' }) id!: string;
  @ApiProperty({ enum: ['enabled', 'disabled', 'refused'], nullable: true, description: 'Null when the plugin was not found before.' })
  before!: string | null;
  @ApiProperty({ enum: ['enabled', 'disabled', 'refused'], nullable: true, description: 'Null when the plugin is no longer found.' })
  after!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'plugins.entries.weather.enabled is false',
    description: 'Why it is not enabled after.',
  })
  reason!: string | null;
}

class PlanPluginConfigChangeDto {
  @ApiProperty({ example: 'weather' }) id!: string;
  @ApiProperty({ description: 'The plugin keeps its old settings until the gateway restarts (its manifest says restartRequired).' })
  restartRequired!: boolean;
}

class PlanPluginsImpactDto {
  @ApiProperty({ type: [PlanPluginStateChangeDto], description: 'Plugins enabled, disabled, refused, found or no longer found.' })
  stateChanged!: PlanPluginStateChangeDto[];
  @ApiProperty({
    type: [PlanPluginConfigChangeDto],
    description: 'Enabled plugins whose config or channel settings change (names only, never the values).',
  })
  configChanged!: PlanPluginConfigChangeDto[];
}

class PlanMcpServerChangeDto {
  @ApiProperty({ example: 'files' }) name!: string;
  @ApiProperty({ type: [String], example: ['args', 'env'], description: 'The settings that change (never their values).' })
  keys!: string[];
}

class PlanMcpAgentToolsDto {
  @ApiProperty({ example: 'main' }) agentId!: string;
  @ApiProperty({ type: [String], example: ['mcp:files:read_file'], description: 'MCP tools it is offered after the change only.' })
  gained!: string[];
  @ApiProperty({ type: [String], example: ['mcp:wiki:*'], description: 'MCP tools it is offered before the change only.' })
  lost!: string[];
}

class PlanMcpImpactDto {
  @ApiProperty({ type: [String], example: ['wiki'] }) serversAdded!: string[];
  @ApiProperty({ type: [String] }) serversRemoved!: string[];
  @ApiProperty({
    type: [PlanMcpServerChangeDto],
    description: 'Servers whose settings change: each reconnects, without a restart (calls in flight finish on the old connection).',
  })
  serversChanged!: PlanMcpServerChangeDto[];
  @ApiProperty({
    type: [PlanMcpAgentToolsDto],
    description:
      'Agents that gain or lose MCP tools, by policy name: the tools a server lists now, or `mcp:<server>:<pattern>` for a server not listed yet.',
  })
  agents!: PlanMcpAgentToolsDto[];
}

class PlanBudgetDto {
  @ApiProperty({ example: 'support-daily' }) name!: string;
  @ApiProperty({ enum: ['agent', 'session', 'peer', 'key', 'account'] }) scope!: string;
  @ApiProperty({ example: 'support-*', description: 'The id or `*` pattern it is attached to.' }) pattern!: string;
  @ApiProperty({ type: Number, nullable: true, example: 1000000 }) tokens!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: null }) cost!: number | null;
  @ApiProperty({ example: 'day', description: '`run`, `day`, `month` or `<n>h`.' }) window!: string;
  @ApiProperty({ type: Number, nullable: true, example: 0.8 }) softAt!: number | null;
  @ApiProperty({
    type: [String],
    nullable: true,
    example: ['support-eu', 'support-us'],
    description:
      'The configured agents, A2A peers, endpoint keys or http channel accounts its pattern matches, each held to the limit on its own; null for a session budget.',
  })
  appliesTo!: string[] | null;
}

class PlanBudgetChangeDto {
  @ApiProperty({ example: 'support-daily' }) name!: string;
  @ApiProperty({ type: PlanBudgetDto }) before!: PlanBudgetDto;
  @ApiProperty({ type: PlanBudgetDto }) after!: PlanBudgetDto;
  @ApiProperty({
    type: [String],
    example: ['tokens'],
    description: 'The settings that change (scope, pattern, tokens, cost, window, softAt); empty when only what it applies to changes.',
  })
  keys!: string[];
  @ApiProperty({ type: [String], example: ['support-apac'] }) appliesToAdded!: string[];
  @ApiProperty({ type: [String], example: [] }) appliesToRemoved!: string[];
}

class PlanBudgetTargetDto {
  @ApiProperty({ enum: ['agent', 'peer', 'key', 'account'] }) scope!: string;
  @ApiProperty({ example: 'support-apac' }) id!: string;
  @ApiProperty({ type: [String], example: ['support-daily'], description: 'Budgets that apply to it after the change only.' })
  gained!: string[];
  @ApiProperty({ type: [String], description: 'Budgets that apply to it before the change only.' }) lost!: string[];
  @ApiProperty({ type: [String], description: 'Budgets that apply to it on both sides, with other settings.' }) changed!: string[];
}

class PlanBudgetsImpactDto {
  @ApiProperty({ type: [PlanBudgetDto] }) added!: PlanBudgetDto[];
  @ApiProperty({ type: [PlanBudgetDto] }) removed!: PlanBudgetDto[];
  @ApiProperty({ type: [PlanBudgetChangeDto], description: 'Budgets kept by name whose settings or reach change.' })
  changed!: PlanBudgetChangeDto[];
  @ApiProperty({ type: [PlanBudgetTargetDto], description: 'Each agent, peer, key or account whose budgets change.' })
  targets!: PlanBudgetTargetDto[];
}

class PlanApprovalTimeoutDto {
  @ApiProperty({ example: 600000 }) before!: number;
  @ApiProperty({ example: 300000 }) after!: number;
}

class PlanApprovalEntryDto {
  @ApiProperty({ example: 'ops' }) agentId!: string;
  @ApiProperty({ type: [String], example: ['a2a_send'], description: 'Tools whose calls start waiting for an operator.' })
  gained!: string[];
  @ApiProperty({ type: [String], description: 'Tools whose calls stop waiting.' }) lost!: string[];
  @ApiPropertyOptional({ type: PlanApprovalTimeoutDto, description: 'tools.approvalTimeoutMs, when it changes.' })
  timeoutMs?: PlanApprovalTimeoutDto;
}

export class PlanImpactDto {
  @ApiProperty({ type: PlanAgentsImpactDto }) agents!: PlanAgentsImpactDto;
  @ApiProperty({ type: [PlanRoutingEntryDto] }) routing!: PlanRoutingEntryDto[];
  @ApiProperty({
    type: [PlanAgentToAgentEntryDto],
    description: 'Only the pairs whose outcome changes, and the allowed pairs that appear or vanish with an agent.',
  })
  agentToAgent!: PlanAgentToAgentEntryDto[];
  @ApiProperty({ type: PlanMemoryImpactDto }) memory!: PlanMemoryImpactDto;
  @ApiProperty({ type: PlanA2aImpactDto }) a2a!: PlanA2aImpactDto;
  @ApiProperty({ type: PlanAdminImpactDto }) admin!: PlanAdminImpactDto;
  @ApiProperty({ type: PlanPluginsImpactDto }) plugins!: PlanPluginsImpactDto;
  @ApiProperty({ type: PlanMcpImpactDto }) mcp!: PlanMcpImpactDto;
  @ApiProperty({ type: PlanBudgetsImpactDto }) budgets!: PlanBudgetsImpactDto;
  @ApiProperty({
    type: [PlanApprovalEntryDto],
    description: 'Agents whose tool calls start or stop waiting for an operator (tools.requiresApproval, docs/approvals.md).',
  })
  approvals!: PlanApprovalEntryDto[];
}

/** Answer of `POST /admin/config/plan` (200 whether the candidate is valid or not). */
export class ConfigPlanDto {
  @ApiProperty({ example: true }) valid!: boolean;
  @ApiProperty({ example: '3f9a1c2b7d10', description: 'The revision being served; the impact compares against it.' }) revision!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '8c0d41e9a2b7',
    description: 'The revision the candidate would get; null when invalid.',
  })
  candidateRevision!: string | null;
  @ApiProperty({ type: [ConfigIssueDto], description: 'Why the candidate is invalid (dotted paths), as /admin/config/validate says.' })
  errors!: ConfigIssueDto[];
  @ApiProperty({ type: [ConfigIssueDto] }) warnings!: ConfigIssueDto[];
  @ApiProperty({
    example:
      '===================================================================\n--- openclaw.json\tcurrent\n+++ openclaw.json\tcandidate\n@@ -1,3 +1,3 @@\n...',
    description:
      'Unified diff of the root file as it is and as it would be written; secrets show as [redacted] / [redacted, changed]. Empty when unchanged.',
  })
  diff!: string;
  @ApiProperty({ type: [String], example: ['gateway.port'], description: 'Keys that would wait for a restart.' }) pendingRestart!: string[];
  @ApiProperty({ type: PlanImpactDto, nullable: true, description: 'Null when the candidate is invalid.' }) impact!: PlanImpactDto | null;
}
