import JSON5 from 'json5';
import { badRequest } from '../../common/errors/app-error';
import { isRecord } from '../../common/is-record';
import { applyEditPlan, mergePatchEdits } from '../config';

/** What a plan is asked about: a whole root file, or a merge patch against the one on disk. */
export interface PlanCandidate {
  document?: unknown;
  mergePatch?: unknown;
}

/**
 * The root file text the candidate would write. Exactly one of `document` (JSON5 text that must parse to
 * an object) and `mergePatch` (an RFC 7396 object, applied with the comment-keeping writer's edits so the
 * text is what a write would produce) — anything else is a 400 naming the problem. Whether the result is a
 * valid config is the pipeline's question, not this one.
 */
export function candidateText(candidate: PlanCandidate, currentText: string, includedPaths: ReadonlyMap<string, string>): string {
  const hasDocument = candidate.document !== undefined;
  const hasPatch = candidate.mergePatch !== undefined;
  if (hasDocument === hasPatch) {
    throw badRequest(
      hasDocument
        ? 'send either document or mergePatch, not both'
        : 'send document (the whole openclaw.json as JSON5 text) or mergePatch (a JSON Merge Patch object against the current file)',
    );
  }
  if (hasDocument) return documentText(candidate.document);
  const patch = candidate.mergePatch;
  if (!isRecord(patch)) {
    throw badRequest(
      `mergePatch must be a JSON object (RFC 7396 against the config file), not ${Array.isArray(patch) ? 'an array' : patch === null ? 'null' : typeof patch}`,
    );
  }
  return applyEditPlan(currentText, (root) => mergePatchEdits(root, patch), includedPaths);
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
