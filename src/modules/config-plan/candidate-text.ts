import JSON5 from 'json5';
import { badRequest } from '../../common/errors/app-error';
import { isRecord } from '../../common/is-record';
import { invalidConfig, mergePatchFiles, restoreRedactedSecrets, type ConfigFileText } from '../config';

/** What a plan is asked about: a whole root file, or a merge patch against the one on disk. */
export interface PlanCandidate {
  document?: unknown;
  mergePatch?: unknown;
}

/**
 * The new text of each file the candidate would change (real path → text; `files` are the config's files,
 * the root first). Exactly one of `document` (JSON5 text of the root file that must parse to an object) and
 * `mergePatch` (an RFC 7396 object, applied with the comment-keeping edits PATCH /admin/config makes, into
 * the root or the `$include`d file that holds each node) — anything else is a 400 naming the problem.
 * Whether the result is a valid config is the pipeline's question, not this one.
 */
export function candidateFiles(candidate: PlanCandidate, files: ReadonlyArray<ConfigFileText>): Map<string, string> {
  const hasDocument = candidate.document !== undefined;
  const hasPatch = candidate.mergePatch !== undefined;
  if (hasDocument === hasPatch) {
    throw badRequest(
      hasDocument
        ? 'send either document or mergePatch, not both'
        : 'send document (the whole openclaw.json as JSON5 text) or mergePatch (a JSON Merge Patch object against the current file)',
    );
  }
  if (hasDocument) {
    // A text read redacted (GET /admin/config/file): each "[redacted]" keeps the secret the file holds there.
    const restored = restoreRedactedSecrets(documentText(candidate.document), files[0].text);
    if (restored.issues.length) throw invalidConfig(restored.issues);
    return new Map([[files[0].path, restored.text]]);
  }
  const patch = candidate.mergePatch;
  if (!isRecord(patch)) {
    throw badRequest(
      `mergePatch must be a JSON object (RFC 7396 against the config file), not ${Array.isArray(patch) ? 'an array' : patch === null ? 'null' : typeof patch}`,
    );
  }
  return mergePatchFiles(files, patch);
}

function documentText(document: unknown): string {
  if (typeof document !== 'string')
    throw badRequest(`document must be the config file as JSON5 text (a string), not ${document === null ? 'null' : typeof document}`);
  let parsed: unknown;
  try {
    parsed = JSON5.parse(document.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw badRequest(`document is not valid JSON5: ${(err as Error).message.replace(/^JSON5: /, '')}`);
  }
  if (!isRecord(parsed)) throw badRequest('document must be a JSON5 object (the whole openclaw.json)');
  return document;
}
