import { Controller, Get, Header, HttpException, HttpStatus, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ProblemDto } from '../../common/errors/problem.dto';
import { ClusterService } from '../cluster';
import { ConfigStore } from '../config';
import { METRICS_CHALLENGE, metricsView } from './metrics-access';
import { MetricsService } from './metrics.service';

/** The OpenAPI security scheme of `gateway.metrics.token` (declared in src/openapi-document.ts). */
export const METRICS_SECURITY = 'metrics-token';

class HealthDto {
  @ApiProperty({ example: 'ok' }) status!: string;
}

class ReadyDto extends HealthDto {
  @ApiProperty({ example: '3f9a1c2b7d10' }) revision!: string;
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly store: ConfigStore,
    private readonly metrics: MetricsService,
    private readonly cluster: ClusterService,
  ) {}

  @Get('healthz')
  @ApiOperation({ summary: 'The process is up' })
  @ApiOkResponse({ type: HealthDto, description: 'The process is up.' })
  healthz(): HealthDto {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Config loaded and stores open (and, with gateway.cluster, Redis answering): ready for traffic' })
  @ApiOkResponse({ type: ReadyDto, description: 'Ready: a valid config is served and the stores (and Redis, in cluster mode) answer.' })
  @ApiServiceUnavailableResponse({
    type: ProblemDto,
    description: 'Not ready yet, or (cluster mode) Redis unreachable (detail says which).',
  })
  async readyz(): Promise<ReadyDto> {
    if (!this.store.isLoaded()) throw new HttpException('config not loaded', HttpStatus.SERVICE_UNAVAILABLE);
    // A replica whose Redis is gone would serve with per-replica rate limits and no membership: out of the pool.
    const redis = await this.cluster.redisHealth();
    if (redis && !redis.reachable) {
      throw new HttpException(`Redis at ${redis.address} is unreachable (gateway.cluster): ${redis.error}`, HttpStatus.SERVICE_UNAVAILABLE);
    }
    return { status: 'ok', revision: this.store.current().revision };
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiBearerAuth(METRICS_SECURITY)
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'Without `gateway.metrics.token`: no authentication, and a label value that names something the public Agent Card ' +
      'does not show (an agent it does not list, an A2A peer, a key of the OpenAI-compatible endpoint, a model provider) ' +
      'is `other`. With the token: `Authorization: Bearer <token>` is required and every name is shown. ' +
      'See docs/operations.md#who-may-scrape.',
  })
  @ApiOkResponse({ description: 'Prometheus text format (version 0.0.4).', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiUnauthorizedResponse({ type: ProblemDto, description: '`gateway.metrics.token` is set and the request does not carry it.' })
  metricsText(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<string> {
    const settings = this.store.current().config.gateway.metrics;
    return this.metrics.text(metricsView(settings, req.headers, () => res.setHeader('WWW-Authenticate', METRICS_CHALLENGE)));
  }
}
