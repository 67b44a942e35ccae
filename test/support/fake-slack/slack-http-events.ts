import { createHmac } from 'node:crypto';
import { BackgroundWork } from '../background-work';
import type { FakeSlackApp } from './fake-slack-app';
import type { RedeliveryOptions } from './slack-socket-mode';
import type { SlackEventCallback } from './slack-types';

/** Slack's request signature: `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<body>` with the app's signing secret. */
export function slackSignature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/**
 * The Events API over HTTP (https://api.slack.com/apis/events-api): each event callback POSTed to the app's
 * `eventsUrl`, signed (`X-Slack-Signature`, `X-Slack-Request-Timestamp`); a non-2xx answer (or none) is retried
 * with `X-Slack-Retry-Num`/`X-Slack-Retry-Reason`.
 */
export class SlackHttpEvents {
  private readonly urls = new Map<FakeSlackApp, string>();
  private readonly work = new BackgroundWork();

  constructor(private readonly options: RedeliveryOptions) {}

  use(app: FakeSlackApp, url: string): void {
    this.urls.set(app, url);
  }

  /** The URL the app's events go to, if it takes them over HTTP. */
  urlOf(app: FakeSlackApp): string | undefined {
    return this.urls.get(app);
  }

  /** Stops retries; resolves once the posts in flight have ended. */
  async close(): Promise<void> {
    this.stop();
    await this.work.settled();
  }

  /** No more posts or retries from now on. */
  stop(): void {
    this.work.stop();
  }

  post(app: FakeSlackApp, url: string, callback: SlackEventCallback, attempt: number): void {
    if (this.work.stopped) return;
    const body = JSON.stringify(callback);
    const timestamp = String(Math.floor(Date.now() / 1000));
    this.work.run(async () => {
      let ok = false;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-slack-request-timestamp': timestamp,
            'x-slack-signature': slackSignature(app.signingSecret, timestamp, body),
            ...(attempt ? { 'x-slack-retry-num': String(attempt), 'x-slack-retry-reason': 'http_error' } : {}),
          },
          body,
        });
        ok = response.ok;
      } catch {
        ok = false;
      }
      app.changed();
      if (!ok && attempt < (this.options.maxRetries ?? 3)) {
        this.work.later(() => this.post(app, url, callback, attempt + 1), this.options.ackTimeoutMs ?? 3000);
      }
    });
  }
}
