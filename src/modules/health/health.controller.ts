import { Controller, Get, Header, HttpException, HttpStatus } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ConfigStore } from '../config';
import { MetricsService } from './metrics.service';

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
  ) {}

  @Get('healthz')
  @ApiOperation({ summary: 'The process is up' })
  @ApiOkResponse({ type: HealthDto, description: 'The process is up.' })
  healthz(): HealthDto {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Config loaded and stores open: ready for traffic' })
  @ApiOkResponse({ type: ReadyDto, description: 'Ready: a valid config is served.' })
  @ApiServiceUnavailableResponse({ description: 'Not ready yet.' })
  readyz(): ReadyDto {
    if (!this.store.isLoaded()) throw new HttpException('config not loaded', HttpStatus.SERVICE_UNAVAILABLE);
    return { status: 'ok', revision: this.store.current().revision };
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics' })
  @ApiOkResponse({ description: 'Prometheus text format (version 0.0.4).', content: { 'text/plain': { schema: { type: 'string' } } } })
  metricsText(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
