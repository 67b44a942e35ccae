import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  NotContains,
  ValidateNested,
} from 'class-validator';
import { PEER_KINDS, type PeerKind } from '../../config';
import { BINDING_TIERS, InboundMessage, RouteTier } from '../route-resolver';

/** Ids are opaque platform strings; the cap only keeps a dry-run request from carrying megabytes. */
const MAX_ID = 512;
/** Channel and account ids sit before the conversation marker in session keys, so they cannot hold ":". */
const NO_COLON = /^[^:]*$/;

export class InboundPeerDto {
  @ApiProperty({ enum: PEER_KINDS, example: 'direct' })
  @IsIn(PEER_KINDS)
  kind!: PeerKind;

  @ApiProperty({ example: '+15551234567' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_ID)
  id!: string;
}

/** An inbound message as a channel adapter would describe it. Unknown fields are rejected. */
export class ResolveRouteRequestDto {
  @ApiProperty({ example: 'whatsapp', description: 'Channel id as used in bindings[].match.channel.' })
  // class-validator reports in reverse declaration order, so IsDefined goes last to lead the message.
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_ID)
  @Matches(NO_COLON, { message: 'channel must not contain ":"' })
  @IsDefined({ message: 'channel is required' })
  channel!: string;

  @ApiPropertyOptional({ example: 'work', description: 'Missing = the default account ("default").' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_ID)
  @Matches(NO_COLON, { message: 'accountId must not contain ":"' })
  accountId?: string;

  @ApiPropertyOptional({ type: InboundPeerDto, description: 'Who the message is from (direct) or where it was posted (group/channel).' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => InboundPeerDto)
  peer?: InboundPeerDto;

  @ApiPropertyOptional({ example: '123456789012345678' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_ID)
  guildId?: string;

  @ApiPropertyOptional({ example: 'T024BE7LD' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_ID)
  teamId?: string;

  @ApiPropertyOptional({
    example: '1700000000.000100',
    description: 'Thread inside the peer conversation; appends :thread:<id> to the session key.',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_ID)
  @NotContains(':thread:')
  threadId?: string;
}

/** JSON `null` on an optional field means "absent", as it would for a missing key. */
export function toInboundMessage(dto: ResolveRouteRequestDto): InboundMessage {
  const inbound: InboundMessage = { channel: dto.channel };
  if (dto.accountId != null) inbound.accountId = dto.accountId;
  if (dto.peer != null) inbound.peer = { kind: dto.peer.kind, id: dto.peer.id };
  if (dto.guildId != null) inbound.guildId = dto.guildId;
  if (dto.teamId != null) inbound.teamId = dto.teamId;
  if (dto.threadId != null) inbound.threadId = dto.threadId;
  return inbound;
}

export class MatchedByDto {
  @ApiProperty({ enum: [...BINDING_TIERS, 'default'], example: 'peer', description: 'Precedence tier that decided the route.' })
  tier!: RouteTier;

  @ApiProperty({ type: Number, nullable: true, example: 3, description: 'Index in bindings[]; null when the default agent answered.' })
  bindingIndex!: number | null;
}

export class BindingPeerDto {
  @ApiProperty({ enum: PEER_KINDS }) kind!: PeerKind;
  @ApiProperty() id!: string;
}

export class BindingMatchDto {
  @ApiProperty({ example: 'whatsapp' }) channel!: string;
  @ApiPropertyOptional({ example: 'work' }) accountId?: string;
  @ApiPropertyOptional({ type: BindingPeerDto }) peer?: BindingPeerDto;
  @ApiPropertyOptional() guildId?: string;
  @ApiPropertyOptional() teamId?: string;
}

export class MatchedBindingDto {
  @ApiProperty({ example: 3 }) index!: number;
  @ApiProperty({ example: 'support' }) agentId!: string;
  @ApiProperty({ type: BindingMatchDto, description: 'As normalized: the deprecated "account" alias shows as accountId.' })
  match!: BindingMatchDto;
}

export class RouteResultDto {
  @ApiProperty({ example: 'support' }) agentId!: string;
  @ApiProperty({ example: 'agent:support:whatsapp:direct:+15551234567' }) sessionKey!: string;
  @ApiProperty({ type: MatchedByDto }) matchedBy!: MatchedByDto;
  @ApiProperty({ type: MatchedBindingDto, nullable: true, description: 'The binding that matched; null for the default agent.' })
  binding!: MatchedBindingDto | null;
}
