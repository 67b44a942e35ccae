import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { MODEL_REF_PATTERN, type SandboxMode } from '../../config';

export class AgentIdentityDto {
  @ApiPropertyOptional({ example: 'Code helper' }) @IsOptional() @IsString() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ example: '💻' }) @IsOptional() @IsString() @MaxLength(32) emoji?: string;
  @ApiPropertyOptional({ example: 'https://example.com/avatar.png' }) @IsOptional() @IsString() @MaxLength(2048) avatar?: string;
}

export class AgentSandboxDto {
  @ApiPropertyOptional({ enum: ['off', 'non-main', 'all'] }) @IsOptional() @IsIn(['off', 'non-main', 'all']) mode?: SandboxMode;
  @ApiPropertyOptional({ enum: ['session', 'agent', 'shared'] })
  @IsOptional()
  @IsIn(['session', 'agent', 'shared'])
  scope?: 'session' | 'agent' | 'shared';
}

export class AgentToolsDto {
  @ApiPropertyOptional({ type: [String], example: ['sessions_list', 'sessions_send'] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  allow?: string[];
  @ApiPropertyOptional({ type: [String], example: ['sessions_spawn'] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  deny?: string[];
}

/** Fields an operator may set on an agent (all optional for PATCH). */
export class UpdateAgentDto {
  @ApiPropertyOptional({ example: 'Support desk' }) @IsOptional() @IsString() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ example: '~/workspaces/support' }) @IsOptional() @IsString() @MinLength(1) workspace?: string;
  @ApiPropertyOptional({ example: 'echo/default', description: '"provider/model"' })
  @IsOptional()
  @IsString()
  @Matches(MODEL_REF_PATTERN, { message: 'model must look like "provider/model", e.g. "echo/default"' })
  model?: string;
  @ApiPropertyOptional({
    example: false,
    description:
      'Mark it the default agent (it gets the messages no binding matches). If another agent already has default: true, the first in the list stays the default and a warning says so.',
  })
  @IsOptional()
  @IsBoolean()
  default?: boolean;
  @ApiPropertyOptional({ type: AgentIdentityDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => AgentIdentityDto)
  identity?: AgentIdentityDto;
  @ApiPropertyOptional({ type: AgentSandboxDto }) @IsOptional() @ValidateNested() @Type(() => AgentSandboxDto) sandbox?: AgentSandboxDto;
  @ApiPropertyOptional({ type: AgentToolsDto }) @IsOptional() @ValidateNested() @Type(() => AgentToolsDto) tools?: AgentToolsDto;
}

export class CreateAgentDto extends UpdateAgentDto {
  @ApiProperty({ example: 'coding', description: 'Normalized to lowercase [a-z0-9_-].' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  id!: string;
}

export class BindingPeerDto {
  @ApiProperty({ enum: ['direct', 'group', 'channel'] }) @IsDefined() @IsIn(['direct', 'group', 'channel']) kind!:
    'direct' | 'group' | 'channel';
  @ApiProperty({ example: 'family-group' }) @IsDefined() @IsString() @MinLength(1) id!: string;
}

export class BindingMatchDto {
  @ApiProperty({ example: 'http' }) @IsDefined() @IsString() @MinLength(1) channel!: string;
  @ApiPropertyOptional({ example: 'work', description: '"*" = any account; unset = the default account only.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  accountId?: string;
  @ApiPropertyOptional({ type: BindingPeerDto }) @IsOptional() @ValidateNested() @Type(() => BindingPeerDto) peer?: BindingPeerDto;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) guildId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MinLength(1) teamId?: string;
}

export class AddBindingDto {
  @ApiProperty({ type: BindingMatchDto }) @IsDefined() @ValidateNested() @Type(() => BindingMatchDto) match!: BindingMatchDto;
}

export class ResolvedBindingDto {
  @ApiProperty({ example: 0, description: 'Position in bindings[].' }) index!: number;
  @ApiProperty({ example: 'support' }) agentId!: string;
  @ApiProperty({ type: BindingMatchDto }) match!: BindingMatchDto;
}

export class AgentViewDto {
  @ApiProperty({ example: 'support' }) id!: string;
  @ApiPropertyOptional({ example: 'Support desk' }) name?: string;
  @ApiProperty() isDefault!: boolean;
  @ApiProperty({ example: 'echo/default' }) model!: string;
  @ApiProperty({ example: '/home/op/.openclaw/workspace-support' }) workspace!: string;
  @ApiProperty({ example: '/home/op/.openclaw/agents/support/agent' }) agentDir!: string;
  @ApiProperty({ type: AgentIdentityDto }) identity!: AgentIdentityDto;
  @ApiProperty({ type: AgentSandboxDto }) sandbox!: AgentSandboxDto;
  @ApiProperty({ type: AgentToolsDto }) tools!: AgentToolsDto;
  @ApiProperty({ type: [ResolvedBindingDto] }) bindings!: ResolvedBindingDto[];
}

export class AgentWriteResultDto {
  @ApiProperty({ type: AgentViewDto }) agent!: AgentViewDto;
  @ApiProperty({ example: '3f9a1c2b7d10', description: 'New config revision (also the ETag header).' }) revision!: string;
}

export class RevisionDto {
  @ApiProperty({ example: '3f9a1c2b7d10' }) revision!: string;
}

export class BindingsWriteResultDto {
  @ApiProperty({ type: [ResolvedBindingDto] }) bindings!: ResolvedBindingDto[];
  @ApiProperty({ example: '3f9a1c2b7d10' }) revision!: string;
}
