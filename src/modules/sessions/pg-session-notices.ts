import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import type { TranscriptAppended } from './session-store.port';

/** The channel appends are announced on; the payload names the session, never its text. */
export const APPEND_CHANNEL = 'clawgate_session_appends';

/** How long a lost listening connection waits before it connects again. */
const RECONNECT_MS = 1000;

interface AppendNotice extends TranscriptAppended {
  /** The store that appended (its own appends are told to its listeners directly). */
  origin: string;
}

export function appendNotice(origin: string, event: TranscriptAppended): string {
  return JSON.stringify({ origin, ...event } satisfies AppendNotice);
}

/**
 * The appends of other replicas, heard with LISTEN on a connection of its own: an append sends `pg_notify` in its
 * transaction, so the notice goes out at its commit (never for a rolled-back line). Memory follows a shared
 * transcript live on every replica this way. A notice is lost while the connection is down (it reconnects after a
 * second); what was missed is picked up by memory's next full sync.
 */
export class AppendNotices {
  private client?: Client;
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private readonly logger = new Logger('sessions');

  constructor(
    private readonly url: string,
    private readonly origin: string,
    private readonly onNotice: (event: TranscriptAppended) => void,
    /** The connection was lost: notices sent meanwhile will never come. */
    private readonly onDeaf: () => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    const client = new Client({ connectionString: this.url });
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    client.on('notification', (message) => this.heard(message.payload));
    await client.connect();
    await client.query(`LISTEN ${APPEND_CHANNEL}`);
    this.client = client;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.client?.end().catch(() => undefined);
  }

  private heard(payload: string | undefined): void {
    try {
      const notice = JSON.parse(payload ?? '') as AppendNotice;
      if (notice.origin === this.origin) return;
      this.onNotice({ agentId: notice.agentId, sessionKey: notice.sessionKey, sessionId: notice.sessionId });
    } catch {
      // Not one of ours (someone else's NOTIFY on the channel): ignored.
    }
  }

  private reconnect(client: Client): void {
    if (this.stopped || this.client !== client || this.timer) return;
    this.client = undefined;
    this.onDeaf();
    this.logger.warn('lost the PostgreSQL connection that hears other replicas’ transcript appends; reconnecting');
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) this.start().catch(() => this.retryLater());
    }, RECONNECT_MS);
  }

  private retryLater(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) this.start().catch(() => this.retryLater());
    }, RECONNECT_MS);
  }
}
