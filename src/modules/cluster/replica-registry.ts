import type { Redis } from 'ioredis';

/** How often a replica refreshes its entry, and how long an entry outlives its last refresh. */
export const HEARTBEAT_INTERVAL_MS = 2_000;
export const REPLICA_TTL_MS = 6_000;

/**
 * How long a replica's runs stay its own after its last heartbeat. Longer than the membership TTL, so a Redis hiccup
 * of a few seconds fails no run, and longer than the lane leases' TTL (LANE_LEASE_TTL_MS, 10 s), so once another
 * replica has failed a dead one's tasks, the sessions of those tasks are free for the next run at once.
 */
export const OWNER_LEASE_TTL_MS = 15_000;

const KEY_PREFIX = 'clawgate:replica:';
const LEASE_PREFIX = 'clawgate:owner-lease:';

/** What a replica says about itself (GET /admin/cluster). */
export interface ReplicaInfo {
  id: string;
  version: string;
  pid: number;
  host: string;
  startedAt: string;
  /** The config revision this replica serves: a replica left on an old one shows it here. */
  configRevision: string;
  /** When it last refreshed its entry. */
  heartbeatAt: string;
}

/**
 * Membership: each replica keeps one key, `clawgate:replica:<id>`, holding its ReplicaInfo with a TTL of
 * REPLICA_TTL_MS, refreshed every HEARTBEAT_INTERVAL_MS. A replica that dies stops refreshing and its key
 * expires; one that stops cleanly deletes it at once. Listing scans the keys, so it needs no other bookkeeping.
 */
export class ReplicaRegistry {
  constructor(private readonly redis: Redis) {}

  /** The membership entry and the ownership lease, refreshed together. */
  async register(info: ReplicaInfo): Promise<void> {
    await this.redis
      .multi()
      .set(KEY_PREFIX + info.id, JSON.stringify({ ...info, marksFollows: true }), 'PX', REPLICA_TTL_MS)
      .set(LEASE_PREFIX + info.id, info.heartbeatAt, 'PX', OWNER_LEASE_TTL_MS)
      .exec()
      .then(throwFirstError);
  }

  /** A clean stop: its runs have ended (and their tasks settled) before this, so the lease goes too. */
  async deregister(id: string): Promise<void> {
    await this.redis.del(KEY_PREFIX + id, LEASE_PREFIX + id);
  }

  /** Which of `ids` still hold their ownership lease (by Redis's expiry, so no replica's clock decides). */
  async leaseHolders(ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const values = await this.redis.mget(...ids.map((id) => LEASE_PREFIX + id));
    return new Set(ids.filter((_, i) => values[i] !== null));
  }

  /** The live replicas, oldest first. */
  async list(): Promise<ReplicaInfo[]> {
    const entries = await this.entries();
    return entries
      .map(({ marksFollows: _, ...info }) => info)
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  }

  /**
   * Whether every live replica marks the tasks its streams follow (docs/decisions.md#task-events-across-replicas):
   * a replica of an earlier version does not, and while one is up every task event is published.
   */
  async everyReplicaMarksFollows(): Promise<boolean> {
    return (await this.entries()).every((entry) => entry.marksFollows === true);
  }

  private async entries(): Promise<Array<ReplicaInfo & { marksFollows?: unknown }>> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await this.redis.scan(cursor, 'MATCH', `${KEY_PREFIX}*`, 'COUNT', 200);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    if (!keys.length) return [];
    const values = await this.redis.mget(...keys);
    return values.flatMap((v) => (v ? parseReplica(v) : []));
  }
}

function throwFirstError(results: Array<[Error | null, unknown]> | null): void {
  const error = results?.find(([err]) => err)?.[0];
  if (error) throw error;
}

function parseReplica(text: string): Array<ReplicaInfo & { marksFollows?: unknown }> {
  try {
    const value = JSON.parse(text) as Partial<ReplicaInfo>;
    return typeof value.id === 'string' && typeof value.configRevision === 'string'
      ? [value as ReplicaInfo & { marksFollows?: unknown }]
      : [];
  } catch {
    // A key of this prefix written by something else: not a replica.
    return [];
  }
}
