import { badRequest } from '../../common/errors/app-error';

/** The default and bounds of `?window=` (docs/topology.md#traffic): a week at most, so the view stays recent. */
export const DEFAULT_WINDOW = '1h';
export const WINDOW_PATTERN = /^([1-9]\d{0,4})([mhd])$/;
const MINUTE = 60_000;
const UNIT_MS = { m: MINUTE, h: 60 * MINUTE, d: 24 * 60 * MINUTE } as const;
export const MAX_WINDOW_MS = 7 * UNIT_MS.d;
export const WINDOW_MESSAGE =
  'window must be a duration from 1m to 7d: a whole number and m (minutes), h (hours) or d (days), e.g. 15m, 1h, 7d';

/** The window's length in ms; a value outside the pattern or over 7 days is a 400 naming `window`. */
export function windowMs(raw: string = DEFAULT_WINDOW): number {
  const m = WINDOW_PATTERN.exec(raw);
  if (!m) throw badRequest(`${WINDOW_MESSAGE}; got ${JSON.stringify(raw)}`);
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  if (ms > MAX_WINDOW_MS) throw badRequest(`${WINDOW_MESSAGE}; ${raw} is longer than 7d`);
  return ms;
}
