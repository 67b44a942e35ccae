import { invalidConfig, toDottedPath, type ConfigIssue, type RuntimeSnapshot } from '../config';
import { isSecretConfigPath } from '../../common/secrets/secret-paths';

type Segments = Array<string | number>;

/**
 * A secret the admin API may write: a `${VAR}` reference, optionally after an auth scheme (a provider header
 * `Bearer ${OPENAI_KEY}`). Anything else is a literal credential, which would land in the file, the history
 * and backups of both.
 */
const SECRET_REFERENCE = /^(?:(?:Bearer|Basic|Token) )?\$\{[A-Z_][A-Z0-9_]*\}$/;

export const LITERAL_SECRET_MESSAGE =
  'a secret must be a ${VAR} reference (e.g. "${PEER_TOKEN}"); put the value in the environment, or send ?allowLiteralSecrets=true';

/** Every literal secret in a merge patch, at its dotted path in the merged document (values never quoted). */
export function literalSecretsInPatch(patch: unknown, at: Segments = []): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  walk(patch, at, (segments, value) => out.push({ path: toDottedPath(segments), message: messageFor(value) }));
  return out;
}

/**
 * The literal secrets of `candidate` (a merged document) that `current` does not already hold at the same
 * place with the same value: what a rollback would introduce. A secret the file already has is not new.
 */
export function newLiteralSecrets(candidate: unknown, current: unknown): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  walk(candidate, [], (segments, value) => {
    if (valueAt(current, segments) !== value) out.push({ path: toDottedPath(segments), message: messageFor(value) });
  });
  return out;
}

/**
 * The `verify` step of a whole-file write (an edited file, a rollback): refuses a candidate that brings in a
 * literal secret the current file does not hold, unless the caller allowed literal secrets.
 */
export function refuseNewLiteralSecrets(allowLiteralSecrets: boolean): (candidate: RuntimeSnapshot, current: RuntimeSnapshot) => void {
  return (candidate, current) => {
    if (allowLiteralSecrets) return;
    const literals = newLiteralSecrets(candidate.document, current.document);
    if (literals.length) throw invalidConfig(literals);
  };
}

function messageFor(value: unknown): string {
  return typeof value === 'string' ? LITERAL_SECRET_MESSAGE : `a secret must be a \${VAR} reference (a string), not ${typeof value}`;
}

function walk(node: unknown, at: Segments, onLiteral: (segments: Segments, value: unknown) => void): void {
  if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...at, i], onLiteral));
  if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) walk(v, [...at, k], onLiteral);
    return;
  }
  if (node === null || node === undefined || !at.length || !isSecretConfigPath(at)) return;
  if (typeof node === 'string' && SECRET_REFERENCE.test(node)) return;
  onLiteral(at, node);
}

function valueAt(doc: unknown, segments: Segments): unknown {
  let node = doc;
  for (const s of segments) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[s];
  }
  return node;
}
