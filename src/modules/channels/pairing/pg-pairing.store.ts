import type { Pool, PoolClient } from 'pg';
import { createPostgresPool, inTransaction, type Migration, migrate, postgresStartError } from '../../../common/storage/postgres';
import { newPairingCode } from './pairing-code';
import {
  MAX_PENDING_PER_CHANNEL,
  PAIRING_CODE_TTL_MS,
  type ApprovedSender,
  type ChannelPairing,
  type PairingAsk,
  type PairingRequest,
  type PairingStore,
} from './pairing-store.port';

const PAIRING_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'chat pairing',
    sql: `
CREATE TABLE pairing_requests (
  channel TEXT NOT NULL,
  code TEXT NOT NULL,
  account_id TEXT NOT NULL,
  sender_id TEXT NOT NULL,
  sender_name TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (channel, code)
);
CREATE TABLE pairing_approved (
  channel TEXT NOT NULL,
  account_id TEXT NOT NULL,
  sender_id TEXT NOT NULL,
  sender_name TEXT,
  approved_at BIGINT NOT NULL,
  PRIMARY KEY (channel, account_id, sender_id)
);`,
  },
];

interface RequestRow {
  channel: string;
  code: string;
  account_id: string;
  sender_id: string;
  sender_name: string | null;
  created_at: number;
  expires_at: number;
}

interface ApprovedRow {
  channel: string;
  account_id: string;
  sender_id: string;
  sender_name: string | null;
  approved_at: number;
}

const requestOf = (r: RequestRow): PairingRequest => ({
  code: r.code,
  channel: r.channel,
  accountId: r.account_id,
  senderId: r.sender_id,
  ...(r.sender_name ? { senderName: r.sender_name } : {}),
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
});

const approvedOf = (r: ApprovedRow): ApprovedSender => ({
  senderId: r.sender_id,
  ...(r.sender_name ? { senderName: r.sender_name } : {}),
  accountId: r.account_id,
  approvedAt: new Date(r.approved_at).toISOString(),
});

/**
 * Pairing every replica shares (`gateway.state` on PostgreSQL): a code given by one replica is approved on any, and the
 * approved sender passes on all of them from its next message. A channel's changes hold a transaction-scoped advisory
 * lock on its name, so the three-codes limit and "one code per sender" hold however many replicas ask at once.
 */
export class PgPairingStore implements PairingStore {
  private constructor(
    private readonly pool: Pool,
    private readonly now: () => number,
  ) {}

  static async open(url: string, now: () => number = Date.now): Promise<PgPairingStore> {
    const pool = createPostgresPool(url, { max: 2 });
    try {
      await migrate(pool, 'pairing', PAIRING_MIGRATIONS);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw postgresStartError(url, 'the pairing store could not start', err);
    }
    return new PgPairingStore(pool, now);
  }

  isApproved(channel: string, accountId: string, senderId: string): Promise<boolean> {
    return this.isApprovedBy(this.pool, channel, accountId, senderId);
  }

  ask(channel: string, accountId: string, sender: { id: string; name?: string }): Promise<PairingAsk> {
    return this.locked(channel, async (client) => {
      if (await this.isApprovedBy(client, channel, accountId, sender.id)) return { kind: 'approved' };
      const pending = await this.pendingBy(client, channel);
      const existing = pending.find((p) => p.senderId === sender.id && p.accountId === accountId);
      if (existing) return { kind: 'code', request: existing, fresh: false };
      if (pending.length >= MAX_PENDING_PER_CHANNEL) return { kind: 'full', pending: pending.length };
      let code = newPairingCode();
      while (pending.some((p) => p.code === code)) code = newPairingCode();
      const created = this.now();
      const { rows } = await client.query<RequestRow>(
        `INSERT INTO pairing_requests (channel, code, account_id, sender_id, sender_name, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [channel, code, accountId, sender.id, sender.name ?? null, created, created + PAIRING_CODE_TTL_MS],
      );
      return { kind: 'code', request: requestOf(rows[0]), fresh: true };
    });
  }

  async list(channels?: readonly string[]): Promise<ChannelPairing[]> {
    const ids = channels ?? (await this.knownChannels());
    const out: ChannelPairing[] = [];
    for (const channel of ids) {
      const [pending, approved] = await Promise.all([
        this.pendingBy(this.pool, channel),
        this.pool.query<ApprovedRow>('SELECT * FROM pairing_approved WHERE channel = $1 ORDER BY approved_at, sender_id', [channel]),
      ]);
      out.push({ channel, pending, approved: approved.rows.map(approvedOf) });
    }
    return out;
  }

  approve(channel: string, code: string): Promise<ApprovedSender | undefined> {
    return this.locked(channel, async (client) => {
      const request = await this.take(client, channel, code);
      if (!request) return undefined;
      const { rows } = await client.query<ApprovedRow>(
        `INSERT INTO pairing_approved (channel, account_id, sender_id, sender_name, approved_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (channel, account_id, sender_id) DO UPDATE SET sender_name = EXCLUDED.sender_name, approved_at = EXCLUDED.approved_at
         RETURNING *`,
        [channel, request.account_id, request.sender_id, request.sender_name, this.now()],
      );
      return approvedOf(rows[0]);
    });
  }

  deny(channel: string, code: string): Promise<PairingRequest | undefined> {
    return this.locked(channel, async (client) => {
      const request = await this.take(client, channel, code);
      return request && requestOf(request);
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Removes the channel's unexpired code and answers its row; undefined when there is none (expired, decided, never given). */
  private async take(client: PoolClient, channel: string, code: string): Promise<RequestRow | undefined> {
    const { rows } = await client.query<RequestRow>('DELETE FROM pairing_requests WHERE channel = $1 AND code = $2 RETURNING *', [
      channel,
      code,
    ]);
    return rows[0] && rows[0].expires_at > this.now() ? rows[0] : undefined;
  }

  private async isApprovedBy(db: Pick<Pool, 'query'>, channel: string, accountId: string, senderId: string): Promise<boolean> {
    const { rowCount } = await db.query('SELECT 1 FROM pairing_approved WHERE channel = $1 AND account_id = $2 AND sender_id = $3', [
      channel,
      accountId,
      senderId,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /** The channel's unexpired codes, oldest first; expired ones are deleted on the way. */
  private async pendingBy(db: Pick<Pool, 'query'>, channel: string): Promise<PairingRequest[]> {
    await db.query('DELETE FROM pairing_requests WHERE channel = $1 AND expires_at <= $2', [channel, this.now()]);
    const { rows } = await db.query<RequestRow>('SELECT * FROM pairing_requests WHERE channel = $1 ORDER BY created_at, code', [channel]);
    return rows.map(requestOf);
  }

  private async knownChannels(): Promise<string[]> {
    const { rows } = await this.pool.query<{ channel: string }>(
      'SELECT channel FROM pairing_requests UNION SELECT channel FROM pairing_approved ORDER BY channel',
    );
    return rows.map((r) => r.channel);
  }

  /** Runs `fn` in a transaction holding the channel's advisory lock: one change of a channel at a time, across replicas. */
  private async locked<T>(channel: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await inTransaction(client, async () => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('clawgate pairing ' || $1))", [channel]);
        return fn(client);
      });
    } finally {
      client.release();
    }
  }
}
