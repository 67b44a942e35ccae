import { badRequest } from '../../common/errors/app-error';
import { USAGE_BUCKETS, USAGE_GROUPS, type UsageBucket, type UsageGroupBy, type UsageQuery } from './usage-store.port';

export const USAGE_PAGE = { default: 100, max: 1000 } as const;
/** Without ?from=: the last day. */
const DEFAULT_WINDOW_MS = 86_400_000;

/** The raw query string values of GET /admin/usage. */
export interface RawUsageQuery {
  groupBy?: unknown;
  from?: unknown;
  to?: unknown;
  bucket?: unknown;
  limit?: unknown;
  cursor?: unknown;
}

/** Reads GET /admin/usage's query; a bad value is a 400 naming the parameter and what it accepts. */
export function readUsageQuery(raw: RawUsageQuery, now = Date.now()): UsageQuery {
  const groupBy = oneOf('groupBy', raw.groupBy, USAGE_GROUPS) ?? 'agent';
  const bucket = oneOf('bucket', raw.bucket, USAGE_BUCKETS);
  const to = instant('to', raw.to) ?? now;
  const from = instant('from', raw.from) ?? to - DEFAULT_WINDOW_MS;
  if (from >= to) throw badRequest(`from must be before to (from ${new Date(from).toISOString()}, to ${new Date(to).toISOString()})`);
  return {
    groupBy: groupBy as UsageGroupBy,
    bucket: bucket as UsageBucket | undefined,
    from,
    to,
    limit: limitOf(raw.limit),
    offset: offsetOf(raw.cursor),
  };
}

/** The page token after `offset` groups. */
export function usageCursor(offset: number): string {
  return Buffer.from(`u${offset}`, 'utf8').toString('base64url');
}

function single(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${name} must be given once`);
  return value;
}

function oneOf(name: string, value: unknown, allowed: readonly string[]): string | undefined {
  const text = single(name, value);
  if (text === undefined) return undefined;
  if (!allowed.includes(text)) throw badRequest(`${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(text)})`);
  return text;
}

/**
 * An ISO 8601 date or time, or a duration back from now (`24h`, `7d`, `30m`): what the CLI's --since sends is the
 * same as what a person types.
 */
function instant(name: string, value: unknown, now = Date.now()): number | undefined {
  const text = single(name, value);
  if (text === undefined) return undefined;
  const ago = /^(\d{1,6})([mhd])$/.exec(text);
  if (ago) return now - Number(ago[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as 'm' | 'h' | 'd'];
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at))
    throw badRequest(
      `${name} must be an ISO 8601 time (2026-12-07T00:00:00Z) or a duration back from now (24h, 7d, 30m); got ${JSON.stringify(text)}`,
    );
  return at;
}

function limitOf(value: unknown): number {
  const text = single('limit', value);
  if (text === undefined) return USAGE_PAGE.default;
  const n = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= USAGE_PAGE.max))
    throw badRequest(`limit must be an integer from 1 to ${USAGE_PAGE.max} (got ${JSON.stringify(text)})`);
  return n;
}

function offsetOf(value: unknown): number {
  const text = single('cursor', value);
  if (text === undefined) return 0;
  const match = /^u(\d{1,9})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) throw badRequest('cursor is not a page token of GET /admin/usage');
  return Number(match[1]);
}
