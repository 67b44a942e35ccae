import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { CliBuild, transpileCli } from '../fixtures/cli-runner';
import { GatewayProcess } from '../fixtures/gateway-process';
import { killUnderLoad } from '../support/a2a-kill-under-load';
import { postgresForSuite } from './support/postgres';
import { startRedis, type TestRedis } from './support/redis';

/**
 * kill -9 of a gateway on PostgreSQL + Redis in the middle of its group commits: sixteen blocking SendMessage calls in
 * flight, so the transcript lines and task rows of many messages go to the database together (one statement per
 * batch, docs/deploy.md). Every commit is made to last (a statement trigger sleeps 200 ms), so the SIGKILL lands while
 * a batch's statement is running — the test checks that in pg_stat_activity — and the restarted gateway must still
 * answer for every acknowledged task and both transcript lines of its session, and number no line twice.
 */

jest.setTimeout(180_000);

const postgres = postgresForSuite('killbatch');

async function sql<T>(url: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Makes every statement writing transcript lines or task rows last 200 ms: a commit is always under way. */
const SLOW_COMMITS = `
CREATE OR REPLACE FUNCTION test_slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_sleep(0.2); RETURN NULL; END $$;
DROP TRIGGER IF EXISTS test_slow_lines ON transcript_lines;
CREATE TRIGGER test_slow_lines AFTER INSERT ON transcript_lines FOR EACH STATEMENT EXECUTE FUNCTION test_slow_commit();
DROP TRIGGER IF EXISTS test_slow_tasks ON tasks;
CREATE TRIGGER test_slow_tasks AFTER INSERT ON tasks FOR EACH STATEMENT EXECUTE FUNCTION test_slow_commit();`;

describe('A2A on PostgreSQL: kill -9 while group commits are running (system)', () => {
  let build: CliBuild;
  let dir: string;
  let redis: TestRedis;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-pg-kill-'));
    [build, redis] = await Promise.all([transpileCli(), startRedis()]);
  }, 90_000);
  afterAll(async () => {
    await gateway?.kill9();
    await build?.remove();
    await redis?.destroy();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('finds every acknowledged task and transcript line after the restart, and no line numbered twice', async () => {
    const url = await postgres.freshDatabase();
    // Connected beforehand, so its look at what is running comes right after the SIGKILL.
    const watcher = new Client({ connectionString: url });
    await watcher.connect();
    const outcome = await killUnderLoad({
      build,
      dir,
      concurrency: 16,
      gatewayConfig: `{ state: { backend: "postgres", url: "\${DATABASE_URL}" }, cluster: { redis: { url: "${redis.url}" } } }`,
      env: { DATABASE_URL: url },
      gatewayStarted: async (g) => {
        gateway = g;
        // The gateway made the tables at its start.
        await sql(url, SLOW_COMMITS);
      },
      // Right after the SIGKILL: the gateway's write statements PostgreSQL was still running.
      afterKillSent: async () => {
        const { rows } = await watcher.query<{ query: string }>(
          `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
             AND state = 'active' AND (query LIKE '%INSERT INTO transcript_lines%' OR query LIKE 'INSERT INTO tasks%')`,
        );
        return rows.map((r) => r.query.replace(/\s+/g, ' ').slice(0, 60)).join(' | ') || undefined;
      },
    }).finally(() => watcher.end());
    // The kill landed while a commit was under way.
    expect(outcome.inFlight).toBeDefined();
    console.log(`statements running at the kill: ${outcome.inFlight}`);
    // Each session's lines are numbered 1..n, whatever the kill cut.
    const gaps = await sql<{ session_seq: number }>(
      url,
      'SELECT session_seq FROM transcript_lines GROUP BY session_seq HAVING MAX(n) <> COUNT(*) OR MIN(n) <> 1',
    );
    expect(gaps).toEqual([]);
  });
});
