import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { HeldLease, LaneLeases } from '../../common/coordination/lane-leases';
import { describeRedisError } from './redis-connection';

/** A lease outlives its holder's last renewal by this much; a dead replica's lanes are free after it. */
export const LANE_LEASE_TTL_MS = 10_000;
const RENEW_INTERVAL_MS = 3_000;
/** How often a waiting replica asks again, at most. */
const MAX_POLL_MS = 200;

/**
 * Takes the lease when nobody holds it; its value names the holder and the fencing token (one global counter).
 * The counter is drawn first and the lease set only if absent (SET NX), in one script: two commands inside it
 * instead of three with an EXISTS first. A refused attempt uses up a token, which keeps tokens strictly increasing
 * across the leases granted (docs/decisions.md#cluster).
 */
const ACQUIRE_LUA = `
local token = redis.call('INCR', KEYS[2])
if redis.call('SET', KEYS[1], ARGV[1] .. '#' .. token, 'NX', 'PX', ARGV[2]) then return token end
return 0
`;
/** Extends (ARGV[2] = ttl) or deletes (ARGV[2] = 0) the lease, only while it is still this holder's. */
const KEEP_LUA = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) else redis.call('DEL', KEYS[1]) end
return 1
`;

type LeaseRedis = Redis & {
  clawgateLaneAcquire(key: string, fence: string, holder: string, ttlMs: number): Promise<number>;
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
  private failing = false;

  constructor(
    redis: Redis,
    private readonly options: { replicaId: string; address: string; fallbacks: LeaseFallbackCounter; ttlMs?: number },
  ) {
    redis.defineCommand('clawgateLaneAcquire', { numberOfKeys: 2, lua: ACQUIRE_LUA });
    redis.defineCommand('clawgateLaneKeep', { numberOfKeys: 1, lua: KEEP_LUA });
    this.redis = redis as LeaseRedis;
  }

  async acquire(laneId: string, signal?: AbortSignal): Promise<HeldLease> {
    const key = `clawgate:lane:${laneId}`;
    const ttlMs = this.options.ttlMs ?? LANE_LEASE_TTL_MS;
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      let token: number;
      try {
        token = Number(await this.redis.clawgateLaneAcquire(key, 'clawgate:lane-fence', this.options.replicaId, ttlMs));
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
      release: async () => {
        clearInterval(timer);
        await this.redis.clawgateLaneKeep(key, owner, 0).catch(() => undefined);
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
