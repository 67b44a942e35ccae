import { isSecretConfigPath } from './secret-paths';

export const REDACTED = '[redacted]';
const PURE_REFERENCE = /^\$\{[A-Z_][A-Z0-9_]*\}$/;

/**
 * A copy of a config document with every secret field replaced by `[redacted]`. A value that is only a
 * `${VAR}` reference stays visible: it names where the secret comes from, not the secret itself.
 */
export function redactSecretFields(doc: unknown, segments: Array<string | number> = []): unknown {
  if (Array.isArray(doc)) return doc.map((v, i) => redactSecretFields(v, [...segments, i]));
  if (doc && typeof doc === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(doc as Record<string, unknown>)) out[k] = redactSecretFields(v, [...segments, k]);
    return out;
  }
  if (segments.length && isSecretConfigPath(segments) && doc !== undefined && doc !== null) {
    return typeof doc === 'string' && PURE_REFERENCE.test(doc) ? doc : REDACTED;
  }
  return doc;
}
