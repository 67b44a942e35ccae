import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class PairingRequestDto {
  @ApiProperty({ example: 'K7QMXR4N', description: 'The one-time code the sender was given.' })
  code!: string;
  @ApiProperty({ example: 'telegram' })
  channel!: string;
  @ApiProperty({ example: 'default', description: 'The bot account the sender wrote to.' })
  accountId!: string;
  @ApiProperty({ example: '123456789', description: 'The sender’s platform id.' })
  senderId!: string;
  @ApiPropertyOptional({ example: 'Ada' })
  senderName?: string;
  @ApiProperty({ example: '2026-12-06T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ example: '2026-12-06T11:00:00.000Z', description: 'After this the code cannot be approved.' })
  expiresAt!: string;
}

export class ApprovedSenderDto {
  @ApiProperty({ example: '123456789' })
  senderId!: string;
  @ApiPropertyOptional({ example: 'Ada' })
  senderName?: string;
  @ApiProperty({ example: 'default' })
  accountId!: string;
  @ApiProperty({ example: '2026-12-06T10:05:00.000Z' })
  approvedAt!: string;
}

export class ChannelPairingDto {
  @ApiProperty({ example: 'telegram' })
  channel!: string;
  @ApiProperty({ type: [PairingRequestDto], description: 'Codes waiting for approval (at most 3 per channel), unexpired.' })
  pending!: PairingRequestDto[];
  @ApiProperty({ type: [ApprovedSenderDto], description: 'Senders approved: they pass the `pairing` DM policy.' })
  approved!: ApprovedSenderDto[];
}

export class PairingListDto {
  @ApiProperty({ type: [ChannelPairingDto] })
  channels!: ChannelPairingDto[];
}

export class PairingDecisionDto {
  @ApiProperty({ example: 'telegram' })
  channel!: string;
  @ApiProperty({ example: 'K7QMXR4N' })
  code!: string;
  @ApiProperty({ enum: ['approved', 'denied'] })
  decision!: 'approved' | 'denied';
  @ApiProperty({ example: '123456789', description: 'The sender the code was given to.' })
  senderId!: string;
  @ApiPropertyOptional({ example: 'Ada' })
  senderName?: string;
}
