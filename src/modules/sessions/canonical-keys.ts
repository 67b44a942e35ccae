/**
 * The canonical form of recently seen session keys. One message touches its session key in several places (the
 * run, each store call); parsing is pure, so each distinct key is parsed once and the frozen result reused — and a
 * key the gateway builds itself (routing a message) is known canonical from the start, so it is never parsed.
 * A plain map emptied when full: cheaper per message than an LRU, and a key that drops out is just parsed again.
 */

export interface CanonicalKey {
  /** Lowercased `agent:<id>:<rest>`. */
  key: string;
  agentId: string;
}

/** Keys end up in the index and in logs; a bound keeps one hostile key from bloating either. */
export const MAX_SESSION_KEY_LENGTH = 1024;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const known = new Map<string, Readonly<CanonicalKey>>();
const MAX_KNOWN_KEYS = 10_000;

export function knownCanonicalKey(raw: string): Readonly<CanonicalKey> | undefined {
  return known.get(raw);
}

export function rememberCanonicalKey(raw: string, canonical: Readonly<CanonicalKey>): void {
  if (known.size >= MAX_KNOWN_KEYS) known.clear();
  known.set(raw, canonical);
}

/**
 * A key a builder has just made from checked, lowercased segments: it is canonical and owned by `agentId`, so it is
 * remembered as if parsed. Only within the limits a parsed key must meet — a longer one is left to be refused
 * where it is used, as any caller's key would be.
 */
export function builtSessionKey(key: string, agentId: string): string {
  if (!known.has(key) && key.length <= MAX_SESSION_KEY_LENGTH && !CONTROL_CHARS.test(key)) {
    rememberCanonicalKey(key, Object.freeze({ key, agentId }));
  }
  return key;
}
