/** A Bot API error as the server words it: the HTTP status is `error_code`. */
export class TgError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number; migrate_to_chat_id?: number },
  ) {
    super(description);
  }
}

export const badRequest = (what: string): TgError => new TgError(400, `Bad Request: ${what}`);

/** A scalar parameter as text (form bodies make every value a string; an object is not a scalar). */
export function str(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** Telegram's dates: Unix time in seconds. */
export function now(): number {
  return Math.floor(Date.now() / 1000);
}

export function optionalInt(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n)) throw badRequest(`field "${name}" must be an Integer`);
  return n;
}

/** Form bodies carry objects and arrays as JSON-serialized strings; JSON bodies carry them as they are. */
export function jsonParam<T>(value: unknown, name: string): T {
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    throw badRequest(`can't parse ${name} JSON object`);
  }
}

/** A boolean parameter set true (a form body carries it as the string `true`). */
export function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}
