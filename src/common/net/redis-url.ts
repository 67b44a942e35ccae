/**
 * The Redis URLs `gateway.cluster.redis.url` accepts: `redis://host[:port][/db]` or `rediss://…` (TLS). Nothing
 * else (no credentials: the password has its own secret field; no query: every option the gateway sets itself),
 * so what an operator writes is exactly what the gateway dials.
 */

export interface RedisEndpoint {
  host: string;
  port: number;
  db: number;
  tls: boolean;
}

export const DEFAULT_REDIS_PORT = 6379;

/**
 * The endpoint of `value`, or why it is not an accepted Redis URL (a message for the config error). The problem
 * never repeats a part of the value: the config error shows the value itself only through its quoter.
 */
export function parseRedisUrl(value: string): RedisEndpoint | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'must be a URL such as "redis://127.0.0.1:6379" or "rediss://redis.internal:6380/0"' };
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    return { problem: 'must start with redis:// or rediss:// (TLS)' };
  }
  if (!url.hostname) return { problem: 'must name a host, e.g. "redis://127.0.0.1:6379"' };
  if (url.search || url.hash) return { problem: 'must not have a query or fragment: only redis[s]://host[:port][/db]' };
  const db = url.pathname === '' || url.pathname === '/' ? '0' : url.pathname.slice(1);
  if (!/^\d{1,5}$/.test(db)) return { problem: 'the path must be a database number (redis://host:port/2)' };
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : DEFAULT_REDIS_PORT,
    db: Number(db),
    tls: url.protocol === 'rediss:',
  };
}

/** `host:port` of an endpoint, for messages: never a credential, whatever the URL held. */
export function redisAddress(endpoint: Pick<RedisEndpoint, 'host' | 'port'>): string {
  return endpoint.host.includes(':') ? `[${endpoint.host}]:${endpoint.port}` : `${endpoint.host}:${endpoint.port}`;
}
