import JSON5 from 'json5';
import { REDACTED } from '../../../common/secrets/redact-document';
import { isSecretConfigPath } from '../../../common/secrets/secret-paths';
import { toDottedPath, type ConfigIssue } from '../pipeline/config-issue';
import { MAX_NESTING_DEPTH } from '../pipeline/nesting-limit';
import { applyJson5Edits, type Json5Edit, type JsonPath } from './json5-edit';

/** Fields that say which entry of a list a secret belongs to: `[redacted]` keeps a secret only for the same entry. */
const IDENTITY_FIELDS = ['name', 'id'] as const;

/**
 * A root file text sent back by a client that read it redacted (`GET /admin/config/file`): each `"[redacted]"` at a
 * secret's path stands for the secret the served file holds at that path, and is put back as it was (a comment-keeping
 * edit of that one value). A `[redacted]` where the served file holds no literal secret, or inside an entry that is
 * now another one (its `name` or `id` changed — tokens reordered in a list), is an issue naming the path: the client
 * must type the secret or its `${VAR}`. Text that is not JSON5 is returned as it is (the pipeline reports where).
 */
export function restoreRedactedSecrets(candidate: string, served: string): { text: string; issues: ConfigIssue[] } {
  let next: unknown;
  let now: unknown;
  try {
    next = JSON5.parse(candidate.replace(/^\uFEFF/, ''));
  } catch {
    return { text: candidate, issues: [] };
  }
  try {
    now = JSON5.parse(served.replace(/^\uFEFF/, ''));
  } catch {
    now = undefined;
  }
  const edits: Json5Edit[] = [];
  const issues: ConfigIssue[] = [];
  for (const at of redactedSecretPaths(next)) {
    const value = valueAt(now, at);
    const sameEntry = IDENTITY_FIELDS.every((f) => valueAt(next, [...at.slice(0, -1), f]) === valueAt(now, [...at.slice(0, -1), f]));
    if (typeof value === 'string' && value !== REDACTED && sameEntry) edits.push({ op: 'set', path: at, value });
    else {
      issues.push({
        path: toDottedPath(at),
        message: sameEntry
          ? `"${REDACTED}" stands for the secret the file holds here, and it holds none: write the secret or its \${VAR} reference`
          : `"${REDACTED}" stands for the secret the file holds here, but this entry's ${IDENTITY_FIELDS.join('/')} changed: write the secret or its \${VAR} reference`,
      });
    }
  }
  return { text: edits.length && !issues.length ? applyJson5Edits(candidate, edits) : candidate, issues };
}

function redactedSecretPaths(document: unknown): JsonPath[] {
  const out: JsonPath[] = [];
  const walk = (value: unknown, at: JsonPath) => {
    // No secret sits that deep, and the pipeline reports the depth: walking on would only exhaust the stack.
    if (at.length > MAX_NESTING_DEPTH) return;
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...at, i]));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...at, k]);
    else if (value === REDACTED && at.length && isSecretConfigPath(at)) out.push(at);
  };
  walk(document, []);
  return out;
}

function valueAt(document: unknown, at: JsonPath): unknown {
  let node = document;
  for (const key of at) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}
