import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ChannelAccountStatusDto {
  @ApiProperty({ example: 'work', description: 'The account id (`default` for a single-bot section).' })
  accountId!: string;
  @ApiProperty({
    enum: ['connecting', 'connected', 'reconnecting', 'failed', 'stopped', 'unknown'],
    description: 'What the channel last reported for the account (`unknown`: nothing yet).',
  })
  state!: string;
  @ApiPropertyOptional({
    description: 'The platform’s error in words (never a credential).',
    example: 'account work: token rejected by Telegram',
  })
  error?: string;
  @ApiProperty({ description: 'Messages handed to the gateway.' })
  messagesIn!: number;
  @ApiProperty({ description: 'Replies and announces delivered to the platform.' })
  messagesOut!: number;
  @ApiProperty({ description: 'Deliveries the platform did not accept.' })
  deliveryFailures!: number;
  @ApiProperty({ description: 'Times the channel reported the account reconnecting.' })
  reconnects!: number;
  @ApiPropertyOptional({ description: 'Why the last message ignored was ignored (not mentioned, a bot, a policy, ...).' })
  lastIgnored?: string;
}

export class ChannelStatusDto {
  @ApiProperty({ example: 'telegram', description: 'The channel id (`channels.<id>`, bindings’ `match.channel`).' })
  id!: string;
  @ApiProperty({
    example: 'telegram',
    description:
      'The plugin that registered it (`a2a`, `http` and `openai` are bundled plugins); `core` for one the gateway serves itself.',
  })
  plugin!: string;
  @ApiProperty({ description: 'Configured under `channels.<id>` and not `enabled: false`.' })
  enabled!: boolean;
  @ApiProperty({
    enum: ['starting', 'running', 'failed', 'stopped', 'core'],
    description: 'Its life: `failed` while its start is retried with backoff (see `error`); `core` for the gateway’s own channels.',
  })
  state!: string;
  @ApiPropertyOptional({ description: 'Why it failed to start.' })
  error?: string;
  @ApiProperty({ description: 'Consecutive failed starts.' })
  failures!: number;
  @ApiProperty({ description: 'Restarts after a failed start (each also counts in clawgate_channel_reconnects_total with account "*").' })
  restarts!: number;
  @ApiProperty({ type: [ChannelAccountStatusDto], description: 'Its accounts: configured ones and those it reported.' })
  accounts!: ChannelAccountStatusDto[];
}

export class ChannelListDto {
  @ApiProperty({ type: [ChannelStatusDto] })
  channels!: ChannelStatusDto[];
}
