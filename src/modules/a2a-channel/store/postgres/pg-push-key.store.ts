import type { JWK } from 'jose';
import type { Pool } from 'pg';
import { namedQuery } from '../../../../common/storage/postgres';
import { isPrivateEcJwk, type PushKeyOrigin, type PushKeyStore } from '../push-key-store.port';

/**
 * The push signing key in the task store's database (migration 4 of its scope): one row, inserted by the first
 * replica that needs a key with `ON CONFLICT DO NOTHING`, then read back by everyone, so concurrent first uses end with
 * one key. The value is the private JWK as JSON text; a row that does not hold one is an error that never quotes it.
 */
export class PgPushKeyStore implements PushKeyStore {
  constructor(
    private readonly pool: Pool,
    private readonly closed: () => boolean,
  ) {}

  async stored(): Promise<JWK | undefined> {
    const [row] = await this.query('SELECT jwk FROM push_signing_key WHERE slot = 1', {});
    return row === undefined ? undefined : parseStoredKey(row.jwk);
  }

  async keepFirst(candidate: JWK, origin: PushKeyOrigin): Promise<JWK> {
    await this.query(
      `INSERT INTO push_signing_key (slot, jwk, origin, created_at) VALUES (1, @jwk, @origin, @created_at)
        ON CONFLICT (slot) DO NOTHING`,
      { jwk: JSON.stringify(candidate), origin, created_at: Date.now() },
    );
    const kept = await this.stored();
    if (!kept) throw new Error('the push signing key row vanished right after it was written');
    return kept;
  }

  private async query(text: string, params: Readonly<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> {
    if (this.closed()) throw new Error('the A2A task store is closed');
    return await namedQuery(this.pool, text, params);
  }
}

/** The stored text as a private EC JWK; the error names the table, never the text. */
function parseStoredKey(text: unknown): JWK {
  let jwk: unknown;
  try {
    jwk = JSON.parse(String(text));
  } catch {
    jwk = undefined;
  }
  if (!isPrivateEcJwk(jwk)) throw new Error('the push signing key stored in PostgreSQL (push_signing_key) is not a private P-256 JWK');
  return jwk;
}
