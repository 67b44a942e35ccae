import { Pool, type PoolClient, types } from 'pg';

export { postgresStartError, postgresTarget, PostgresUnavailableError } from './postgres-errors';

/**
 * PostgreSQL for the shared stores (docs/deploy.md): one pool per store, named parameters as the SQLite stores
 * write them, schema migrations applied once however many replicas start together, and errors that name the
 * server but never the URL's password.
 */

/** int8 (COUNT, BIGINT columns: epoch ms, row positions) as a number: every value the stores keep is below 2^53. */
const INT8_OID = 20;
const parsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID ? (value: string) => Number(value) : (types.getTypeParser(oid, format) as unknown)) as typeof types.getTypeParser,
};

export interface PostgresPoolOptions {
  /** Connections at most; each store has its own pool. */
  max?: number;
  /** How long a start waits for the server before giving up. */
  connectTimeoutMs?: number;
}

export function createPostgresPool(url: string, options: PostgresPoolOptions = {}): Pool {
  const pool = new Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    idleTimeoutMillis: 30_000,
    types: parsers,
  });
  // An idle connection the server dropped is an 'error' on the pool; the next query opens a new one.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * `@name` parameters (as sqlFilter and the SQLite stores write them) to PostgreSQL's `$1, $2…`. A name used twice
 * gets one number. Names are letters, digits and `_`; `@` inside a string literal is not supported (none is used).
 */
export function positional(sql: string, params: Readonly<Record<string, unknown>>): { text: string; values: unknown[] } {
  const numbers = new Map<string, number>();
  const values: unknown[] = [];
  const text = sql.replace(/@([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    if (!(name in params)) throw new Error(`no value for the SQL parameter @${name}`);
    let n = numbers.get(name);
    if (n === undefined) {
      values.push(params[name]);
      numbers.set(name, (n = values.length));
    }
    return `$${n}`;
  });
  return { text, values };
}

/**
 * One statement with `@name` parameters, and its rows: on the pool (any pooled connection, a transaction by itself)
 * or on a connection a transaction holds.
 */
export async function namedQuery(
  pool: Pool | PoolClient,
  text: string,
  params: Readonly<Record<string, unknown>> = {},
): Promise<Array<Record<string, unknown>>> {
  const query = positional(text, params);
  return (await pool.query(query.text, query.values)).rows as Array<Record<string, unknown>>;
}

export interface Migration {
  /** 1, 2, 3…: applied in order, each once per database. */
  version: number;
  name: string;
  sql: string;
}

/** One lock for every migration of the gateway: replicas that start together apply them one after another. */
const MIGRATION_LOCK = 0x636c6177; // "claw"

/**
 * Applies the `scope`'s migrations the database does not have yet, each in its own transaction with its row in
 * `schema_migrations`. Under `pg_advisory_lock`, so a second replica starting at the same moment waits, then finds
 * them applied. Returns the versions it applied.
 */
export async function migrate(pool: Pool, scope: string, migrations: readonly Migration[]): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        scope TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (scope, version))`);
      const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations WHERE scope = $1', [scope]);
      const applied = new Set(done.rows.map((r) => r.version));
      const ran: number[] = [];
      for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
        if (applied.has(m.version)) continue;
        await inTransaction(client, async () => {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (scope, version, name) VALUES ($1, $2, $3)', [scope, m.version, m.name]);
        });
        ran.push(m.version);
      }
      return ran;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** BEGIN … COMMIT around `fn` on one connection; ROLLBACK and rethrow when it fails. */
export async function inTransaction<T>(client: PoolClient, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
