import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { HeldLease, LaneLeases } from '../../common/coordination/lane-leases';
import { describeRedisError } from './redis-connection';
import { LaneLeaseBatch } from './lane-lease-batch';

/** A lease outlives its holder's last renewal by this much; a dead replica's lanes are free after it. */
export const LANE_LEASE_TTL_MS = 10_000;
const RENEW_INTERVAL_MS = 3_000;
/** How often a waiting replica asks again, at most. */
const MAX_POLL_MS = 200;

/** Extends (ARGV[2] = ttl) or deletes (ARGV[2] = 0) the lease, only while it is still this holder's. */
const KEEP_LUA = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) else redis.call('DEL', KEYS[1]) end
return 1
`;

type LeaseRedis = Redis & {
  clawgateLaneKeep(key: string, owner: string, ttlMs: number): Promise<number>;
};

export interface LeaseFallbackCounter {
  inc(): void;
}

/**
 * Session lanes as Redis leases with expiry and a fencing token. A holder renews every RENEW_INTERVAL_MS; a lease
 * it can no longer renew (taken over, or not renewed within its TTL because Redis failed) is `lost`, and the run
 * under it is aborted, so two replicas never run one lane at once. While Redis cannot be asked at all, a waiting
 * run goes ahead without a lease (fail open, like the rate limits: docs/decisions.md#cluster), counted and warned.
 */
export class RedisLaneLeases implements LaneLeases {
  private readonly logger = new Logger('cluster');
  private readonly redis: LeaseRedis;
  /** Acquires and releases, batched; renewals (only runs longer than RENEW_INTERVAL_MS have any) go alone. */
  private readonly batch: LaneLeaseBatch;
  private failing = false;

  constructor(
    redis: Redis,
    private readonly options: { replicaId: string; address: string; fallbacks: LeaseFallbackCounter; ttlMs?: number },
  ) {
    redis.defineCommand('clawgateLaneKeep', { numberOfKeys: 1, lua: KEEP_LUA });
    this.redis = redis as LeaseRedis;
    this.batch = new LaneLeaseBatch(redis, {
      fenceKey: 'clawgate:lane-fence',
      holder: options.replicaId,
      ttlMs: options.ttlMs ?? LANE_LEASE_TTL_MS,
    });
  }

  async acquire(laneId: string, signal?: AbortSignal): Promise<HeldLease> {
    const key = `clawgate:lane:${laneId}`;
    const ttlMs = this.options.ttlMs ?? LANE_LEASE_TTL_MS;
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      let token: number;
      try {
        token = await this.batch.acquire(key);
      } catch (err) {
        return this.unleased(err);
      }
      this.recovered();
      if (token > 0) return this.hold(key, `${this.options.replicaId}#${token}`, token, ttlMs);
      await sleep(Math.min(25 * 2 ** attempt, MAX_POLL_MS), signal);
    }
  }

  private hold(key: string, owner: string, token: number, ttlMs: number): HeldLease {
    const lost = new AbortController();
    let renewedAt = Date.now();
    const lose = (why: string) => {
      clearInterval(timer);
      if (!lost.signal.aborted) lost.abort(new Error(`the session lane lease was lost: ${why}`));
    };
    const timer = setInterval(() => {
      this.redis.clawgateLaneKeep(key, owner, ttlMs).then(
        (kept) => (Number(kept) === 1 ? (renewedAt = Date.now()) : lose('another replica holds it now')),
        () => {
          // Past its TTL without a renewal the lease may be someone else's: stop rather than run twice.
          if (Date.now() - renewedAt >= ttlMs) lose(`not renewed within ${ttlMs} ms (Redis at ${this.options.address} failed)`);
        },
      );
    }, RENEW_INTERVAL_MS);
    timer.unref();
    return {
      token,
      lost: lost.signal,
      release: () => {
        clearInterval(timer);
        this.batch.release(key, owner);
        return Promise.resolve();
      },
    };
  }

  private unleased(err: unknown): HeldLease {
    this.options.fallbacks.inc();
    if (!this.failing) {
      this.failing = true;
      this.logger.warn(
        `Redis at ${this.options.address} failed (${describeRedisError(err)}); session lanes are serialized by this replica alone until it answers again`,
      );
    }
    return { token: 0, lost: new AbortController().signal, release: () => Promise.resolve() };
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.log(`session lanes are leased through Redis at ${this.options.address} again`);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
