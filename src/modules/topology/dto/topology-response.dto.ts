import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class TopologyNodeDto {
  @ApiProperty({ example: 'agent:support', description: 'Stable id: `<kind prefix>:<name>`.' }) id!: string;
  @ApiProperty({ enum: ['channel', 'account', 'binding', 'default-route', 'agent', 'peer-in', 'peer-out', 'directory', 'mcp-server'] })
  kind!: string;
  @ApiProperty({ example: '🛟 Support Desk (support)', description: 'What the picture writes.' }) label!: string;
  @ApiPropertyOptional({ example: 'http' }) channel?: string;
  @ApiPropertyOptional({ example: 'default' }) accountId?: string;
  @ApiPropertyOptional({ example: 0, description: 'binding: position in bindings[].' }) index?: number;
  @ApiPropertyOptional({ example: 'accountId', description: 'binding: precedence tier.' }) tier?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'binding: the match as normalized.' }) match?: object;
  @ApiPropertyOptional({ example: 1, description: 'binding: the binding that answers this one’s messages instead.' }) shadowedBy?: number;
  @ApiPropertyOptional({ example: 'support' }) agentId?: string;
  @ApiPropertyOptional({ description: 'agent: the default agent.' }) default?: boolean;
  @ApiPropertyOptional({ description: 'agent: reachable by A2A peers (exposeAgents, channel on).' }) exposed?: boolean;
  @ApiPropertyOptional() sandboxed?: boolean;
  @ApiPropertyOptional({ example: 'hermes' }) peer?: string;
  @ApiPropertyOptional({ description: 'peer-in: its token is set.' }) usable?: boolean;
  @ApiPropertyOptional({ example: 'https://iris.example/a2a/v1', description: 'peer-out: the configured URL (no token).' }) url?: string;
  @ApiPropertyOptional({ example: 'unusable', description: 'peer-out, mcp-server: why a call would be refused before any I/O.' })
  refusal?: string;
  @ApiPropertyOptional({ description: 'directory: a granted collection no agent owns.' }) path?: string;
  @ApiPropertyOptional({ example: 'files', description: 'mcp-server: its name under `mcp.servers` (or the one a plugin registered).' })
  server?: string;
  @ApiPropertyOptional({ example: 'wiki-tools', description: 'mcp-server: the plugin that registered it (`api.registerMcpServer`).' })
  plugin?: string;
  @ApiPropertyOptional({ enum: ['stdio', 'streamable-http', 'sse'], description: 'mcp-server: its configured transport.' })
  transport?: string;
  @ApiPropertyOptional({
    example: 'mcp-server-filesystem',
    description: 'mcp-server: the command’s file name (stdio) or the URL’s host; never arguments, env or headers.',
  })
  endpoint?: string;
}

export class EdgeSpendDto {
  @ApiProperty({ example: 4200 }) inputTokens!: number;
  @ApiProperty({ example: 310 }) outputTokens!: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.0136, description: 'The priced calls’ cost; null when none was priced.' })
  cost!: number | null;
  @ApiProperty({ example: 6, description: 'Model calls.' }) calls!: number;
}

export class RouteSpendDto {
  @ApiProperty({ example: 'a2a', description: 'The channel the work came in on (`agent` for sessions_send and spawns).' }) channel!: string;
  @ApiProperty({ example: 'hermes', description: 'The peer, OpenAI/MCP key, channel account, or sending session key.' }) caller!: string;
  @ApiProperty({ example: 'support' }) agentId!: string;
  @ApiProperty({ example: 4200 }) inputTokens!: number;
  @ApiProperty({ example: 310 }) outputTokens!: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.0136 }) cost!: number | null;
  @ApiProperty({ example: 6 }) calls!: number;
}

export class TopologyEdgeDto {
  @ApiProperty({ example: 'agent-to-agent:agent:support->agent:expert' }) id!: string;
  @ApiProperty({ enum: ['route', 'binding', 'agent-to-agent', 'memory', 'a2a-in', 'a2a-out', 'mcp'] }) kind!: string;
  @ApiProperty({ example: 'agent:support' }) from!: string;
  @ApiProperty({ example: 'agent:expert' }) to!: string;
  @ApiPropertyOptional({ description: 'agent-to-agent: the /admin/policy/check decision.' }) allowed?: boolean;
  @ApiPropertyOptional({ type: String, enum: ['visibility', 'policy', null] as unknown as string[], nullable: true }) layer?: string | null;
  @ApiPropertyOptional({ example: 'tools.agentToAgent.allow: "*" matched both' }) rule?: string;
  @ApiPropertyOptional({ description: 'agent-to-agent, refused: what a session tool would be told.' }) message?: string;
  @ApiPropertyOptional({ example: 'family-sessions', description: 'memory: the collection the grantee may search.' }) collection?: string;
  @ApiPropertyOptional() path?: string;
  @ApiPropertyOptional() pattern?: string;
  @ApiPropertyOptional({
    type: [String],
    example: ['mcp:files:*'],
    description: 'mcp: the agent’s tools.allow entries granting it tools of the server.',
  })
  grants?: string[];
  @ApiPropertyOptional({ example: 3, description: 'Observed in the window: sessions_send exchanges, or A2A tasks.' }) traffic?: number;
  @ApiPropertyOptional({
    type: EdgeSpendDto,
    description: 'What the model calls of the work that came along the edge used in the window; absent when none.',
  })
  spend?: EdgeSpendDto;
}

export class AgentPairCountDto {
  @ApiProperty({ example: 'support' }) from!: string;
  @ApiProperty({ example: 'expert' }) to!: string;
  @ApiProperty({ example: 3 }) count!: number;
}

export class PeerAgentCountDto {
  @ApiProperty({ example: 'hermes' }) peer!: string;
  @ApiProperty({ type: String, nullable: true, example: 'support' }) agentId!: string | null;
  @ApiProperty({ example: 12 }) count!: number;
}

export class TopologyTrafficDto {
  @ApiProperty({ example: '1h' }) window!: string;
  @ApiProperty({ example: '2026-12-01T18:00:00.000Z' }) since!: string;
  @ApiProperty({ type: [AgentPairCountDto] }) sessionsSend!: AgentPairCountDto[];
  @ApiProperty({ type: [PeerAgentCountDto] }) a2aTasks!: PeerAgentCountDto[];
  @ApiProperty({ type: [RouteSpendDto], description: 'Model call usage in the window per channel, caller and agent.' })
  spend!: RouteSpendDto[];
}

export class TopologyDto {
  @ApiProperty({ example: '3f9a1c2b7d4e' }) revision!: string;
  @ApiProperty({ example: 'main' }) defaultAgentId!: string;
  @ApiProperty({ type: [TopologyNodeDto] }) nodes!: TopologyNodeDto[];
  @ApiProperty({ type: [TopologyEdgeDto] }) edges!: TopologyEdgeDto[];
  @ApiProperty({ type: TopologyTrafficDto }) traffic!: TopologyTrafficDto;
}

export class TopologyDiffDto {
  @ApiProperty({ type: [TopologyNodeDto] }) nodesAdded!: TopologyNodeDto[];
  @ApiProperty({ type: [TopologyNodeDto] }) nodesRemoved!: TopologyNodeDto[];
  @ApiProperty({ type: [TopologyEdgeDto] }) edgesAdded!: TopologyEdgeDto[];
  @ApiProperty({ type: [TopologyEdgeDto] }) edgesRemoved!: TopologyEdgeDto[];
}

export class TopologyPlanDto {
  @ApiProperty() valid!: boolean;
  @ApiProperty({ example: '3f9a1c2b7d4e', description: 'The served revision (before).' }) revision!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The candidate’s revision; null when invalid.' }) candidateRevision!:
    string | null;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Validation errors of an invalid candidate.' }) errors!: object[];
  @ApiProperty({ type: TopologyDiffDto, nullable: true, description: 'Null when the candidate is invalid.' }) diff!: TopologyDiffDto | null;
}
