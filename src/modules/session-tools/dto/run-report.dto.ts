import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { RunStatus } from '../../runtime';
import type { AnnounceStatus, ExchangeState, PingPongEnd } from '../exchange-record';
import type { RunReport } from '../run-reports';

const RUN_STATUSES: RunStatus[] = ['queued', 'running', 'completed', 'failed', 'aborted'];
const EXCHANGE_STATES: ExchangeState[] = ['running', 'finished', 'interrupted'];
const ANNOUNCE_STATUSES: AnnounceStatus[] = ['pending', 'delivered', 'stored', 'skipped', 'failed'];
const PING_PONG_ENDS: PingPongEnd[] = [
  'same-session',
  'disabled',
  'reply-skip',
  'empty-reply',
  'step-failed',
  'step-timeout',
  'max-turns',
  'requester-aborted',
];

export class RunUsageReportDto {
  @ApiProperty({ example: 812 }) inputTokens!: number;
  @ApiProperty({ example: 64 }) outputTokens!: number;
}

/** One run of an exchange, as last seen. */
export class ExchangeStepDto {
  @ApiProperty({ example: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b' }) runId!: string;
  @ApiProperty({ example: 'agent:expert:main', description: 'The session the run ran in.' }) sessionKey!: string;
  @ApiProperty({ enum: RUN_STATUSES, example: 'completed' }) status!: RunStatus;
  @ApiPropertyOptional({
    example: 'E42 means a stale cache; clear it.',
    description:
      'The reply, at most 2000 characters for round one and the run asked about, 500 for later steps (the transcript has all of it).',
  })
  reply?: string;
  @ApiPropertyOptional({ example: 5120, description: 'Length of the whole reply; only when `reply` was cut.' }) replyChars?: number;
  @ApiPropertyOptional({ example: 'no answer from provider fake within 120000 ms', description: 'Why it failed or was aborted.' })
  error?: string;
  @ApiPropertyOptional({ example: '2026-11-29T10:00:00.000Z' }) queuedAt?: string;
  @ApiPropertyOptional({ example: '2026-11-29T10:00:00.010Z' }) startedAt?: string;
  @ApiPropertyOptional({ example: '2026-11-29T10:00:02.402Z' }) endedAt?: string;
}

/** The run asked about. */
export class RunOutcomeDto extends ExchangeStepDto {
  @ApiProperty({ example: 'expert' }) agentId!: string;
  @ApiPropertyOptional({ enum: ['cancel', 'shutdown'], description: 'Who asked for the abort.' }) abortedBy?: 'cancel' | 'shutdown';
  @ApiPropertyOptional({ example: 0, description: 'Model → tools → model rounds done; only while the runtime still has the run.' })
  toolRounds?: number;
  @ApiPropertyOptional({ type: RunUsageReportDto, description: 'Only while the runtime still has the run.' }) usage?: RunUsageReportDto;
}

export class PingPongTurnDto extends ExchangeStepDto {
  @ApiProperty({ example: 1 }) turn!: number;
  @ApiProperty({ enum: ['requester', 'target'], description: 'Whose session spoke in this turn.' }) role!: 'requester' | 'target';
}

export class PingPongDto {
  @ApiProperty({ example: 3, description: '`session.agentToAgent.maxPingPongTurns` when the ping-pong began.' }) maxTurns!: number;
  @ApiProperty({ type: [PingPongTurnDto], description: 'The turns taken, in order.' }) turns!: PingPongTurnDto[];
  @ApiPropertyOptional({ enum: PING_PONG_ENDS, example: 'reply-skip', description: 'Why it stopped; absent while it goes on.' })
  endedBecause?: PingPongEnd;
}

export class AnnounceTargetDto {
  @ApiProperty({ example: 'http' }) channel!: string;
  @ApiPropertyOptional({ example: 'desk' }) accountId?: string;
  @ApiPropertyOptional({ example: 'tech-group' }) to?: string;
  @ApiPropertyOptional() threadId?: string;
}

export class AnnounceDto {
  @ApiProperty({
    enum: ANNOUNCE_STATUSES,
    example: 'delivered',
    description:
      '`delivered`: the channel accepted the post; `stored`: it keeps it in the transcript; `skipped`: nothing was posted ' +
      '(the target answered ANNOUNCE_SKIP, no delivery context, …); `failed`: the post or the announce run failed; `pending`: not yet known.',
  })
  status!: AnnounceStatus;
  @ApiPropertyOptional({ example: 'webhook answered HTTP 204' }) detail?: string;
  @ApiPropertyOptional({ type: AnnounceTargetDto, description: "The target session's delivery context the post went to." })
  target?: AnnounceTargetDto;
  @ApiPropertyOptional({ type: ExchangeStepDto, description: 'The announce run; its reply is the text posted.' }) step?: ExchangeStepDto;
  @ApiPropertyOptional({ example: '2026-11-29T10:00:05.120Z', description: 'When the outcome was known.' }) at?: string;
}

/** A sessions_send exchange after round one. */
export class ExchangeDto {
  @ApiProperty({ example: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b', description: "Round one's run id (the sessions_send result's runId)." })
  runId!: string;
  @ApiProperty({ example: '5d0c9a4e-1b7f-4c2a-8e3d-6f9a0b1c2d3e' }) chainId!: string;
  @ApiProperty({ example: 'agent:support:main' }) requesterSessionKey!: string;
  @ApiProperty({ example: 'agent:expert:main' }) targetSessionKey!: string;
  @ApiProperty({ example: 'Customer build fails with E42. Cause?', description: 'The message sent, at most 500 characters.' })
  request!: string;
  @ApiPropertyOptional({ enum: ['ok', 'accepted', 'timeout', 'error'], description: 'What the sessions_send caller was answered.' })
  callerStatus?: 'ok' | 'accepted' | 'timeout' | 'error';
  @ApiProperty({
    enum: EXCHANGE_STATES,
    example: 'finished',
    description: '`running` while a step may still change; `interrupted`: the gateway stopped before the exchange ended.',
  })
  state!: ExchangeState;
  @ApiProperty({ example: '2026-11-29T10:00:00.000Z' }) startedAt!: string;
  @ApiProperty({ example: '2026-11-29T10:00:05.120Z' }) updatedAt!: string;
  @ApiPropertyOptional({ example: '2026-11-29T10:00:05.120Z' }) endedAt?: string;
  @ApiProperty({ type: ExchangeStepDto }) roundOne!: ExchangeStepDto;
  @ApiPropertyOptional({ type: PingPongDto, description: 'Absent when the exchange ended before it (round one did not complete).' })
  pingPong?: PingPongDto;
  @ApiPropertyOptional({ type: AnnounceDto, description: 'Absent until the exchange reaches it, and when it ended before.' })
  announce?: AnnounceDto;
}

/** `GET /admin/runs/:runId`. */
export class RunReportDto implements RunReport {
  @ApiProperty({ type: RunOutcomeDto }) run!: RunOutcomeDto;
  @ApiPropertyOptional({ type: ExchangeDto, description: 'The sessions_send exchange this run is part of.' }) exchange?: ExchangeDto;
  @ApiPropertyOptional({ enum: ['round-one', 'ping-pong', 'announce'], description: 'Which step of `exchange` this run is.' })
  exchangeStep?: 'round-one' | 'ping-pong' | 'announce';
}
