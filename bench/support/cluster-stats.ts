import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';

/**
 * What the shared services did during a bench phase, read from the services themselves: Redis's
 * `INFO commandstats` and `INFO cpu`, PostgreSQL's cumulative statistics views, and the CPU time of the
 * PostgreSQL server processes from /proc. pg_stat_statements is not loaded by the test server, so PostgreSQL work
 * is counted as transactions and row changes, not statements.
 */

/** Calls per Redis command (lowercase name), and the server's CPU seconds (user + system). */
export interface RedisStats {
  calls: Map<string, number>;
  cpuSeconds: number;
}

type RedisClient = import('ioredis').default;

/** One INFO reply parsed: `cmdstat_<name>:calls=N,…` lines and `used_cpu_sys`/`used_cpu_user`. */
export async function redisStats(client: RedisClient): Promise<RedisStats> {
  const text = (await client.info('commandstats')) + '\n' + (await client.info('cpu'));
  const calls = new Map<string, number>();
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(m[1].toLowerCase(), Number(m[2]));
  const cpu = (key: string) => Number(new RegExp(`^${key}:([\\d.]+)`, 'm').exec(text)?.[1] ?? 0);
  return { calls, cpuSeconds: cpu('used_cpu_sys') + cpu('used_cpu_user') };
}

/** The commands between two reads, without the bench's own INFO calls; sorted by count, highest first. */
export function redisDelta(
  before: RedisStats,
  after: RedisStats,
): { total: number; byCommand: Array<[string, number]>; cpuSeconds: number } {
  const byCommand: Array<[string, number]> = [];
  for (const [name, calls] of after.calls) {
    const delta = calls - (before.calls.get(name) ?? 0);
    if (name !== 'info' && delta > 0) byCommand.push([name, delta]);
  }
  byCommand.sort((a, b) => b[1] - a[1]);
  return { total: byCommand.reduce((sum, [, n]) => sum + n, 0), byCommand, cpuSeconds: after.cpuSeconds - before.cpuSeconds };
}

/** Transactions and row changes of one database, as its cumulative statistics say. */
export interface PgCounters {
  commits: number;
  rollbacks: number;
  inserted: number;
  updated: number;
  deleted: number;
}

/** One query on a connection of its own (so the read costs one transaction, which the figures may ignore). */
export async function pgCounters(url: string): Promise<PgCounters> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<keyof PgCounters, string>>(`
      SELECT d.xact_commit AS commits, d.xact_rollback AS rollbacks,
             COALESCE(t.ins, 0) AS inserted, COALESCE(t.upd, 0) AS updated, COALESCE(t.del, 0) AS deleted
        FROM pg_stat_database d,
             (SELECT sum(n_tup_ins) AS ins, sum(n_tup_upd) AS upd, sum(n_tup_del) AS del FROM pg_stat_user_tables) t
       WHERE d.datname = current_database()`);
    const row = rows[0];
    return {
      commits: Number(row.commits),
      rollbacks: Number(row.rollbacks),
      inserted: Number(row.inserted),
      updated: Number(row.updated),
      deleted: Number(row.deleted),
    };
  } finally {
    await client.end();
  }
}

/**
 * The counters once every backend has reported: a backend flushes its statistics at most once a second and may
 * hold them for up to 10 s while idle, but always on exit — so this is read after the gateways (and their pools)
 * have stopped, and read again until two reads agree.
 */
export async function settledPgCounters(url: string): Promise<PgCounters> {
  let last = await pgCounters(url);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const next = await pgCounters(url);
    // The read itself commits one transaction: equal apart from that.
    if (next.inserted === last.inserted && next.updated === last.updated && next.commits - last.commits <= 1) return next;
    last = next;
  }
  return last;
}

export function pgDelta(before: PgCounters, after: PgCounters): PgCounters {
  return {
    commits: after.commits - before.commits,
    rollbacks: after.rollbacks - before.rollbacks,
    inserted: after.inserted - before.inserted,
    updated: after.updated - before.updated,
    deleted: after.deleted - before.deleted,
  };
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) of the PostgreSQL server of `dataDir`: the postmaster (its pid is the first line of
 * postmaster.pid) and its live children, plus what its exited children used. undefined where /proc cannot say.
 */
export async function postgresCpuSeconds(dataDir: string): Promise<number | undefined> {
  try {
    const postmaster = Number((await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    let ticks = 0;
    for (const entry of await fs.readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      // Fields after the command (in parentheses): state, ppid, … utime (14), stime (15), cutime (16), cstime (17).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const ppid = Number(fields[1]);
      if (pid === postmaster) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      else if (ppid === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
