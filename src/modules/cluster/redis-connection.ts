import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { parseRedisUrl, redisAddress } from '../../common/net/redis-url';
import type { ClusterSettings } from '../config';

/** Longest wait for the first connection at start, and for one command afterwards. */
export const REDIS_CONNECT_TIMEOUT_MS = 3_000;
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/** Reconnect attempts back off up to this; a replica that lost Redis keeps trying for as long as it runs. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * Redis could not be reached at start. Names the host and port only: the URL never holds a credential (the
 * config refuses one) and the password is never part of a message.
 */
export class ClusterRedisUnreachableError extends Error {
  constructor(
    readonly address: string,
    reason: string,
  ) {
    super(`cannot reach Redis at ${address} (gateway.cluster.redis.url): ${reason}`);
    this.name = 'ClusterRedisUnreachableError';
  }
}

export interface RedisConnection {
  client: Redis;
  /** `host:port`, for messages and /admin/cluster. */
  address: string;
}

/**
 * Connects to the cluster's Redis, failing within REDIS_CONNECT_TIMEOUT_MS. Afterwards commands never queue
 * while the connection is down (`enableOfflineQueue: false`): each fails at once, so a caller can fall back or
 * report unreadiness instead of waiting; the client reconnects in the background.
 */
export async function connectRedis(settings: ClusterSettings, logger: Logger): Promise<RedisConnection> {
  const endpoint = parseRedisUrl(settings.redis.url);
  // The config validated it; a problem here is a bug, reported without the URL.
  if ('problem' in endpoint) throw new Error(`gateway.cluster.redis.url: ${endpoint.problem}`);
  const address = redisAddress(endpoint);
  const client = new Redis({
    host: endpoint.host,
    port: endpoint.port,
    db: endpoint.db,
    password: settings.redis.password,
    ...(endpoint.tls ? { tls: { servername: endpoint.host } } : {}),
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS),
    connectionName: 'clawgate',
  });
  let lastError = '';
  client.on('error', (err: Error) => {
    // ioredis repeats the same error on every reconnect attempt: log each distinct one once.
    const text = describeRedisError(err);
    if (text !== lastError) logger.warn(`Redis at ${address}: ${text}`);
    lastError = text;
  });
  client.on('ready', () => {
    if (lastError) logger.log(`Redis at ${address} is reachable again`);
    lastError = '';
  });
  try {
    await withTimeout(client.connect(), REDIS_CONNECT_TIMEOUT_MS, `no answer within ${REDIS_CONNECT_TIMEOUT_MS} ms`);
    await client.ping();
  } catch (err) {
    client.disconnect();
    // ioredis rejects with "Connection is closed."; the socket's own error (ECONNREFUSED, ENOTFOUND, NOAUTH) says why.
    throw new ClusterRedisUnreachableError(address, lastError || describeRedisError(err));
  }
  return { client, address };
}

/** An error of the client as a short sentence; the password is not in any of them, but masked anyway. */
export function describeRedisError(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { message?: string };
  const text = e?.code && !String(e.message).includes(e.code) ? `${e.code} ${e.message}` : String(e?.message ?? err);
  return text.replace(/redis(s?):\/\/[^@\s]*@/gi, 'redis$1://***@');
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
