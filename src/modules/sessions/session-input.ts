/**
 * Checks on what callers hand the session store. Keys, labels and agent ids reach the store from model
 * tool calls, admin requests and peers, so every public store method runs its inputs through these and a
 * bad value becomes a 400 AppError instead of an odd file or a poisoned index.
 */
import { isCanonicalAgentId } from '../../common/agent-id';
import { badRequest } from '../../common/errors/app-error';
import { CONTROL_CHARS, knownCanonicalKey, MAX_SESSION_KEY_LENGTH, rememberCanonicalKey, type CanonicalKey } from './canonical-keys';
import { agentIdFromSessionKey, InvalidSessionKeyError, parseSessionKey } from './session-key';

export { MAX_SESSION_KEY_LENGTH } from './canonical-keys';
export type { CanonicalKey } from './canonical-keys';
export const MAX_LABEL_LENGTH = 512;
/**
 * Transcript file stems. Generated as UUIDs by the store; checked again when an index is loaded from disk
 * so a hand-edited `sessionId: "../../x"` can never steer a read or an append outside the sessions dir.
 */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** The canonical form of a session key and its owner; 400 when it is not a valid key. */
export function canonicalSessionKey(raw: unknown, what = 'session key'): Readonly<CanonicalKey> {
  if (typeof raw !== 'string') throw badRequest(`${what} must be a string`);
  const known = knownCanonicalKey(raw);
  if (known) return known;
  if (raw.length > MAX_SESSION_KEY_LENGTH) throw badRequest(`${what} is longer than ${MAX_SESSION_KEY_LENGTH} characters`);
  if (CONTROL_CHARS.test(raw)) throw badRequest(`${what} ${JSON.stringify(raw)} contains control characters`);
  const parsed = parseSessionKey(raw);
  if (!parsed) throw badRequest(keyProblem(raw, what));
  // The key module is the only sanctioned source of a session's owner (docs/sessions.md#session-keys): its
  // parser's agentId, the same answer agentIdFromSessionKey gives.
  const canonical = Object.freeze({ key: parsed.key, agentId: parsed.agentId });
  rememberCanonicalKey(raw, canonical);
  return canonical;
}

function keyProblem(raw: string, what: string): string {
  try {
    agentIdFromSessionKey(raw);
  } catch (e) {
    if (e instanceof InvalidSessionKeyError) return what === 'session key' ? e.message : `${what}: ${e.message}`;
    throw e;
  }
  return `${what} ${JSON.stringify(raw)} is not a valid session key`;
}

/** Agent ids given directly (filters, label lookups): lowercased, never "repaired" into another agent's id. */
export function checkAgentId(raw: unknown): string {
  const id = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (!isCanonicalAgentId(id)) throw badRequest(`invalid agent id ${JSON.stringify(raw)} (expected [a-z0-9][a-z0-9_-]{0,63})`);
  return id;
}

/** Labels are trimmed; 1..512 characters (code points, so an emoji counts once). */
export function checkLabel(raw: unknown): string {
  if (typeof raw !== 'string') throw badRequest('label must be a string');
  const label = raw.trim();
  const length = [...label].length;
  if (length < 1 || length > MAX_LABEL_LENGTH) {
    throw badRequest(`label must be 1..${MAX_LABEL_LENGTH} characters (got ${length})`);
  }
  if (CONTROL_CHARS.test(label)) throw badRequest('label must not contain control characters');
  return label;
}

/** A label lookup with an impossible label finds nothing rather than failing. */
export function labelOrUndefined(raw: unknown): string | undefined {
  try {
    return checkLabel(raw);
  } catch {
    return undefined;
  }
}

export function checkLimit(raw: number | undefined, fallback: number | undefined, name = 'limit'): number | undefined {
  if (raw === undefined) return fallback;
  if (!Number.isInteger(raw) || raw < 1) throw badRequest(`${name} must be a positive integer (got ${String(raw)})`);
  return raw;
}

export function isSafeSessionId(id: unknown): id is string {
  return typeof id === 'string' && SESSION_ID.test(id);
}
