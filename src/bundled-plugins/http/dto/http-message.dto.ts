import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  NotContains,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';

/** The conversation kinds of routing's peers (the config's `PEER_KINDS`: a binding's `match.peer.kind`). */
const PEER_KINDS = ['direct', 'group', 'channel'] as const;
type PeerKind = (typeof PEER_KINDS)[number];

/** Peer and thread ids are opaque platform ids; the cap keeps them sane inside session keys and file indexes. */
const MAX_ID = 512;
/** A message is 1..65536 characters (docs/channels.md#sending-a-message). */
export const MAX_TEXT_CHARS = 65_536;

// class-validator reports constraints in reverse declaration order, so IsDefined goes last to lead the message.

export class HttpPeerDto {
  @ApiProperty({ enum: PEER_KINDS, example: 'direct', description: '`direct` for a person; `group`/`channel` for a shared conversation.' })
  @IsIn(PEER_KINDS)
  @IsDefined({ message: 'kind is required' })
  kind!: PeerKind;

  @ApiProperty({ example: 'customer-4711', description: 'Who sent the message (direct) or where it was posted (group/channel).' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_ID)
  @IsDefined({ message: 'id is required' })
  id!: string;
}

/** A streamed reply is a wait: `stream: true` with `wait: false` asks for two different answers at once. */
@ValidatorConstraint({ name: 'streamNeedsWait' })
class StreamNeedsWait implements ValidatorConstraintInterface {
  validate(stream: unknown, args: ValidationArguments): boolean {
    return !(stream === true && (args.object as { wait?: unknown }).wait === false);
  }

  defaultMessage(): string {
    return 'stream: true cannot be combined with wait: false (a streamed reply is always waited for)';
  }
}

/** An inbound message of the http channel. Unknown fields are rejected (400 naming them). */
export class HttpInboundMessageDto {
  @ApiProperty({ type: HttpPeerDto })
  @IsObject()
  @ValidateNested()
  @Type(() => HttpPeerDto)
  @IsDefined({ message: 'peer is required' })
  peer!: HttpPeerDto;

  @ApiProperty({ example: 'hello', minLength: 1, maxLength: MAX_TEXT_CHARS })
  @IsString()
  @Length(1, MAX_TEXT_CHARS)
  @IsDefined({ message: 'text is required' })
  text!: string;

  @ApiPropertyOptional({ example: 'ticket-981', description: 'Thread inside the peer conversation; the session key gets `:thread:<id>`.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_ID)
  @NotContains(':thread:')
  threadId?: string;

  @ApiPropertyOptional({
    default: true,
    description: 'true: wait (up to 120 s) for the agent and return its reply; false: answer 202 at once with the run id.',
  })
  @IsOptional()
  @IsBoolean()
  wait?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      'true: answer with a `text/event-stream` of the reply as the agent writes it (events `run`, `delta`, `done`; ' +
      'docs/channels.md#streaming-the-reply). Cannot be combined with `wait: false`.',
  })
  @IsOptional()
  @Validate(StreamNeedsWait)
  @IsBoolean()
  stream?: boolean;
}

export class HttpRunAcceptedDto {
  @ApiProperty({ example: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b' }) runId!: string;
  @ApiProperty({ example: 'agent:support:main' }) sessionKey!: string;
  @ApiPropertyOptional({
    enum: ['running'],
    description: 'Present when `wait: true` timed out: the run goes on; its reply lands in the session (and the webhook, if any).',
  })
  status?: 'running';
}

export class HttpRunResultDto {
  @ApiProperty({ example: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b' }) runId!: string;
  @ApiProperty({ example: 'agent:support:main' }) sessionKey!: string;
  @ApiProperty({ example: 'support' }) agentId!: string;
  @ApiProperty({ enum: ['completed', 'failed', 'aborted'], example: 'completed' }) status!: 'completed' | 'failed' | 'aborted';
  @ApiPropertyOptional({ example: '[support] hello', description: 'The agent reply (completed runs).' }) reply?: string;
  @ApiPropertyOptional({ example: 'model provider openai: HTTP 503', description: 'Why the run failed (≤ 512 chars).' }) error?: string;
}
