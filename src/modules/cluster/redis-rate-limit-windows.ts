import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { InProcessRateLimitWindows, RateLimitWindows } from '../../common/rate-limit/rate-limit-windows';
import { describeRedisError } from './redis-connection';

/**
 * The sliding-window log of `sliding-window-rate-limiter.ts`, kept in one Redis sorted set per key so every
 * replica takes its slots from the same window: members are the slots granted, scored by the time they were
 * taken. One script call per request (or per JSON-RPC batch): it drops the slots older than the window, counts
 * what is left and grants up to `count` more, all atomically. Refused requests are not recorded, exactly as
 * in-process. The time is Redis's own (`TIME`), so replicas with skewed clocks still share one window.
 */
const TAKE_SLOTS_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local count = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - windowMs)
local used = redis.call('ZCARD', KEYS[1])
local granted = math.min(count, math.max(0, limit - used))
for i = 1, granted do
  redis.call('ZADD', KEYS[1], now, ARGV[4] .. ':' .. i)
end
if granted > 0 then
  redis.call('PEXPIRE', KEYS[1], windowMs)
end
return granted
`;

type ScriptedRedis = Redis & {
  clawgateTakeSlots(key: string, limit: number, windowMs: number, count: number, nonce: string): Promise<number>;
};

export interface FallbackCounter {
  /** A take answered by the in-process window because Redis failed. */
  inc(): void;
}

/**
 * Shared windows. While Redis fails (down, unreachable, too slow) a take falls back to this replica's own
 * in-process window — each replica then limits on its own, so a peer may get up to one limit per replica —
 * with one warning per outage and a metric per fallback (docs/decisions.md#cluster: why fail open).
 */
export class RedisRateLimitWindows implements RateLimitWindows {
  private readonly logger = new Logger('cluster');
  private readonly redis: ScriptedRedis;
  private readonly used = new Set<string>();
  private sequence = 0;
  private failing = false;

  constructor(
    redis: Redis,
    private readonly options: {
      namespace: string;
      replicaId: string;
      address: string;
      fallback: InProcessRateLimitWindows;
      fallbacks: FallbackCounter;
    },
  ) {
    redis.defineCommand('clawgateTakeSlots', { numberOfKeys: 1, lua: TAKE_SLOTS_LUA });
    this.redis = redis as ScriptedRedis;
  }

  async take(key: string, count: number, limit: number, windowMs: number): Promise<number> {
    this.used.add(key);
    // Unique per slot across replicas: two slots taken in the same millisecond are two members.
    const nonce = `${this.options.replicaId}:${++this.sequence}`;
    try {
      const granted = await this.redis.clawgateTakeSlots(this.redisKey(key), limit, windowMs, count, nonce);
      if (this.failing) {
        this.failing = false;
        this.logger.log(`rate limits of ${this.options.namespace} are shared through Redis at ${this.options.address} again`);
      }
      return Number(granted);
    } catch (err) {
      this.options.fallbacks.inc();
      if (!this.failing) {
        this.failing = true;
        this.logger.warn(
          `Redis at ${this.options.address} failed (${describeRedisError(err)}); rate limits of ${this.options.namespace} ` +
            'are counted by this replica alone until it answers again',
        );
      }
      return this.options.fallback.takeNow(key, count, limit, windowMs);
    }
  }

  forget(key: string): void {
    this.used.delete(key);
    this.options.fallback.forget(key);
    // Every replica forgets on the same config change; a failure leaves a window that expires by itself.
    this.redis.del(this.redisKey(key)).catch(() => undefined);
  }

  keys(): string[] {
    return [...new Set([...this.used, ...this.options.fallback.keys()])];
  }

  private redisKey(key: string): string {
    return `clawgate:ratelimit:${this.options.namespace}:${key}`;
  }
}
