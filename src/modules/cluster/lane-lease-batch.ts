import type { Redis } from 'ioredis';

/**
 * Lane leases given back and taken, many in one script call (docs/decisions.md#cluster: lane leases in batches).
 * While a call is on its way, the requests that come meanwhile wait for the next one, so an idle replica sends each
 * at once and a busy one sends one call per batch instead of one per request; inside the script the fencing counter
 * is drawn once per batch (INCRBY), and each lease costs one SET NX to take and a GET and a DEL to give back.
 *
 * Releases run before acquires in a call, and a call goes out only after the previous one was answered: a lane
 * this replica gives back and asks for again is free by the time it asks.
 */
const BATCH_LUA = `
local releases = tonumber(ARGV[1])
local acquires = #KEYS - 1 - releases
local ttl = ARGV[2]
local holder = ARGV[3]
for i = 1, releases do
  if redis.call('GET', KEYS[1 + i]) == ARGV[3 + i] then redis.call('DEL', KEYS[1 + i]) end
end
local out = {}
if acquires > 0 then
  local first = redis.call('INCRBY', KEYS[1], acquires) - acquires
  for i = 1, acquires do
    local token = first + i
    if redis.call('SET', KEYS[1 + releases + i], holder .. '#' .. token, 'NX', 'PX', ttl) then out[i] = token else out[i] = 0 end
  end
end
return out
`;

type BatchRedis = Redis & {
  clawgateLaneBatch(...numberOfKeysKeysAndArgs: Array<string | number>): Promise<number[]>;
};

interface Acquire {
  key: string;
  resolve(token: number): void;
  reject(err: unknown): void;
}

interface Release {
  key: string;
  value: string;
}

export class LaneLeaseBatch {
  private readonly redis: BatchRedis;
  private acquires: Acquire[] = [];
  private releases: Release[] = [];
  private sending = false;

  constructor(
    redis: Redis,
    private readonly options: { fenceKey: string; holder: string; ttlMs: number },
  ) {
    redis.defineCommand('clawgateLaneBatch', { lua: BATCH_LUA });
    this.redis = redis as BatchRedis;
  }

  /** The lease's fencing token once taken, 0 while someone else holds it; rejects when Redis failed. */
  acquire(key: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.acquires.push({ key, resolve, reject });
      this.flush();
    });
  }

  /** Gives back the lease of `key` if its value is still `value`; failures are ignored (the lease expires). */
  release(key: string, value: string): void {
    this.releases.push({ key, value });
    this.flush();
  }

  private flush(): void {
    if (this.sending || (!this.acquires.length && !this.releases.length)) return;
    const acquires = this.acquires;
    const releases = this.releases;
    this.acquires = [];
    this.releases = [];
    this.sending = true;
    const keys = [this.options.fenceKey, ...releases.map((r) => r.key), ...acquires.map((a) => a.key)];
    const args = [releases.length, this.options.ttlMs, this.options.holder, ...releases.map((r) => r.value)];
    // The number of keys goes first in each call: the command was defined without one.
    this.redis
      .clawgateLaneBatch(keys.length, ...keys, ...args)
      .then(
        (tokens) => acquires.forEach((a, i) => a.resolve(Number(tokens[i]))),
        (err: unknown) => acquires.forEach((a) => a.reject(err)),
      )
      .finally(() => {
        this.sending = false;
        this.flush();
      });
  }
}
