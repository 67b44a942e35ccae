import { createTwoFilesPatch } from 'diff';
import JSON5 from 'json5';
import { applyJson5Edits, type Json5Edit } from '../config';
import { isSecretConfigPath } from '../../common/secrets/secret-paths';
import { REDACTED } from '../../common/secrets/redact-document';

/** Marks a secret of the candidate that differs from the current file's at the same place. */
export const REDACTED_CHANGED = '[redacted, changed]';
const PURE_REFERENCE = /^\$\{[A-Z_][A-Z0-9_]*\}$/;

/**
 * The unified diff of the root file as it is and as it would be written, with every secret written in
 * either text replaced first (a `${VAR}` reference stays: it names a source, not a secret). A secret that
 * changes shows as `[redacted]` → `[redacted, changed]`, so a rotation is visible without its value.
 * Empty when the texts are the same.
 */
export function redactedDiff(
  fileName: string,
  beforeText: string,
  afterText: string,
  labels: [before: string, after: string] = ['current', 'candidate'],
): string {
  if (beforeText === afterText) return '';
  const beforeSecrets = secretsIn(beforeText);
  const afterSecrets = secretsIn(afterText);
  const before = redact(beforeText, beforeSecrets, () => REDACTED);
  const after = redact(afterText, afterSecrets, (key, value) => (beforeSecrets.get(key) === value ? REDACTED : REDACTED_CHANGED));
  return createTwoFilesPatch(fileName, fileName, before, after, labels[0], labels[1]);
}

/** A config file's text with every literal secret shown as `[redacted]` (`${VAR}` references stay). */
export function redactedText(text: string): string {
  return redact(text, secretsIn(text), () => REDACTED);
}

type SecretPath = Array<string | number>;

/** JSON-encoded path → value of every literal secret in the document. */
function secretsIn(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (value: unknown, at: SecretPath) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...at, i]));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...at, k]);
    else if (at.length && isSecretConfigPath(at) && value !== null && value !== undefined) {
      if (!(typeof value === 'string' && PURE_REFERENCE.test(value))) out.set(JSON.stringify(at), JSON.stringify(value));
    }
  };
  if (text.trim()) walk(JSON5.parse(text.replace(/^\uFEFF/, '')), []);
  return out;
}

function redact(text: string, secrets: Map<string, string>, marker: (key: string, value: string) => string): string {
  const edits: Json5Edit[] = [...secrets].map(([key, value]) => ({
    op: 'set',
    path: JSON.parse(key) as SecretPath,
    value: marker(key, value),
  }));
  return edits.length ? applyJson5Edits(text, edits) : text;
}
