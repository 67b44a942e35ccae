/**
 * The rate-limit headers of Discord's REST answers (https://discord.com/developers/docs/topics/rate-limits), the way
 * @discordjs/rest reads them: every answer names its bucket; a 429 also says when to retry.
 */

/** A bucket hash per route, messages of a channel sharing one (Discord's hashes are opaque; these are stable). */
export function bucketOf(route: string): string {
  return Buffer.from(route.replace(/\/messages\/\d+/, '/messages/:id'))
    .toString('hex')
    .slice(0, 32);
}

/** The headers of an answer within the limit. */
export function withinLimitHeaders(route: string): Record<string, string> {
  return {
    'X-RateLimit-Limit': '50',
    'X-RateLimit-Remaining': '49',
    'X-RateLimit-Reset': String(Date.now() / 1000 + 1),
    'X-RateLimit-Reset-After': '1',
    'X-RateLimit-Bucket': bucketOf(route),
  };
}

/** A 429's body (`retry_after` in seconds) and headers. */
export function rateLimited(route: string, retryAfter: number): { body: Record<string, unknown>; headers: Record<string, string> } {
  return {
    body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
    headers: {
      'Retry-After': String(Math.ceil(retryAfter)),
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Date.now() / 1000 + retryAfter),
      'X-RateLimit-Reset-After': String(retryAfter),
      'X-RateLimit-Bucket': bucketOf(route),
      'X-RateLimit-Scope': 'user',
    },
  };
}
