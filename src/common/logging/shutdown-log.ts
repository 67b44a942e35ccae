import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';

/** The gateway's last line: it has stopped (runs ended, stores closed, the HTTP server closed), why, and after how long. */
@Injectable()
export class ShutdownLog implements OnApplicationShutdown {
  private readonly logger = new Logger('gateway');
  private readonly startedAt = Date.now();

  onApplicationShutdown(signal?: string): void {
    const uptimeS = Math.round((Date.now() - this.startedAt) / 1000);
    this.logger.log(
      { event: 'gateway.stopped', signal: signal ?? null, uptimeS },
      `clawgate stopped${signal ? ` on ${signal}` : ''} after ${uptimeS} s`,
    );
  }
}
