import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { InProcessRateLimitWindows, RateLimitWindows } from '../../common/rate-limit/rate-limit-windows';
import { describeRedisError } from './redis-connection';
import { LocalSlotBlocks, SLOT_HOLD_MS } from './local-slot-blocks';

/**
 * The sliding-window log of `sliding-window-rate-limiter.ts`, kept in one Redis sorted set per key so every
 * replica takes its slots from the same window: members are the slots granted, scored by the time they count
 * from. One script call drops the slots older than the window, counts what is left, grants up to `count` and — only
 * when all of them were granted and at least `extra` more would still be free for the other replicas afterwards —
 * `extra` more slots for this replica to spend locally (LocalSlotBlocks). Those are scored `holdMs` ahead, the
 * latest moment this replica may spend them, so the window always counts a slot from its use or later: the replicas
 * together never exceed the limit. Refused requests are not recorded, exactly as in-process. The time is Redis's own
 * (`TIME`), so replicas with skewed clocks still share one window.
 */
const TAKE_SLOTS_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local count = tonumber(ARGV[3])
local extra = tonumber(ARGV[5])
local holdMs = tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - windowMs)
local free = math.max(0, limit - redis.call('ZCARD', KEYS[1]))
local granted = math.min(count, free)
local held = 0
if granted == count then held = math.max(0, math.min(extra, free - count - extra)) end
if granted + held > 0 then
  local args = {}
  for i = 1, granted + held do
    args[#args + 1] = i > granted and now + holdMs or now
    args[#args + 1] = ARGV[4] .. ':' .. i
  end
  redis.call('ZADD', KEYS[1], unpack(args))
  redis.call('PEXPIRE', KEYS[1], windowMs + holdMs)
end
return {granted, held}
`;

type ScriptedRedis = Redis & {
  clawgateTakeSlots(
    key: string,
    limit: number,
    windowMs: number,
    count: number,
    nonce: string,
    extra: number,
    holdMs: number,
  ): Promise<[number, number]>;
};

export interface FallbackCounter {
  /** A take answered by the in-process window because Redis failed. */
  inc(): void;
}

/**
 * Shared windows. A request is first served from the slots this replica already holds for the key (no round trip);
 * otherwise one script call takes its slots and, while the window is far from full, a block of slots ahead
 * (docs/decisions.md#cluster: rate-limit slots in blocks). While Redis fails (down, unreachable, too slow) a take
 * falls back to this replica's own in-process window — each replica then limits on its own, so a peer may get up to
 * one limit per replica — with one warning per outage and a metric per fallback (docs/decisions.md#cluster: why fail
 * open).
 */
export class RedisRateLimitWindows implements RateLimitWindows {
  private readonly logger = new Logger('cluster');
  private readonly redis: ScriptedRedis;
  private readonly used = new Set<string>();
  private readonly blocks: LocalSlotBlocks;
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
    // Slots held but not spent in time are given back, so the others can have them before the window moves on.
    this.blocks = new LocalSlotBlocks((key, members) => void this.redis.zrem(this.redisKey(key), ...members).catch(() => undefined));
  }

  take(key: string, count: number, limit: number, windowMs: number): number | Promise<number> {
    this.used.add(key);
    const local = this.blocks.spend(key, count);
    if (local === count) return count;
    return this.takeShared(key, count - local, limit, windowMs).then((granted) => local + granted);
  }

  private async takeShared(key: string, count: number, limit: number, windowMs: number): Promise<number> {
    // Unique per slot across replicas: two slots taken in the same millisecond are two members.
    const nonce = `${this.options.replicaId}:${++this.sequence}`;
    const extra = this.blocks.wanted(key, limit);
    let heldMembers: string[] = [];
    try {
      const reply = await this.redis.clawgateTakeSlots(this.redisKey(key), limit, windowMs, count, nonce, extra, extra ? SLOT_HOLD_MS : 0);
      const [granted, held] = reply.map(Number);
      heldMembers = Array.from({ length: held }, (_, i) => `${nonce}:${granted + i + 1}`);
      if (this.failing) {
        this.failing = false;
        this.logger.log(`rate limits of ${this.options.namespace} are shared through Redis at ${this.options.address} again`);
      }
      return granted;
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
    } finally {
      if (extra) this.blocks.settle(key, heldMembers);
    }
  }

  forget(key: string): void {
    this.used.delete(key);
    this.blocks.forget(key);
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
