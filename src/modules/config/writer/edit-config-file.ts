import { promises as fs } from 'node:fs';
import JSON5 from 'json5';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { invalidConfig } from '../config-admin.service';
import { type ConfigIssue, toDottedPath } from '../pipeline/config-issue';
import { loadConfig } from '../pipeline/load-config';
import { writeFileAtomic } from '../../../common/fs/atomic-write';
import { applyJson5Edits, Json5Edit, Json5EditError } from './json5-edit';

/**
 * Edits to make, either fixed or computed from the root file as written (before `$include`s are merged:
 * paths and array indexes must address the text being edited).
 */
export type EditPlan = ReadonlyArray<Json5Edit> | ((rootDocument: Record<string, unknown>) => ReadonlyArray<Json5Edit>);

export interface EditConfigFileInput {
  configPath: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  plan: EditPlan;
  /** Dotted path → included file, from the current snapshot; edits under these are refused. */
  includedPaths?: ReadonlyMap<string, string>;
  /** The file text already read by the caller (so it can be checked against what is applied). */
  currentText?: string;
  /** Runs after validation, right before the write, with the content hash the edited files will have. */
  beforeWrite?: (contentHash: string) => Promise<void>;
}

export interface EditConfigFileResult {
  text: string;
  revision: string;
  /** The loader's warnings on the edited config (e.g. a binding to a channel this gateway has no adapter for). */
  warnings: ConfigIssue[];
}

/**
 * One config edit: minimal text edits that keep the user's comments, the whole
 * pipeline run on the result before anything is written (invalid → 422, file untouched), then an atomic
 * replace. Shared by the admin API (through ConfigWriter) and the CLI.
 * Described in docs/configuration.md#12-edits-made-by-the-gateway.
 */
export async function editConfigFile(input: EditConfigFileInput): Promise<EditConfigFileResult> {
  const text = input.currentText ?? (await fs.readFile(input.configPath, 'utf8'));
  const next = applyEditPlan(text, input.plan, input.includedPaths);
  const check = await loadConfig({ configPath: input.configPath, stateDir: input.stateDir, env: input.env, rootText: next });
  if (!check.ok) throw invalidConfig(check.errors, check.warnings);
  await input.beforeWrite?.(check.snapshot.contentHash);
  await writeFileAtomic(input.configPath, next);
  return { text: next, revision: check.snapshot.revision, warnings: check.warnings };
}

/**
 * The text `plan` makes of `text`, nothing written: edits under an `$include`d section are refused (409),
 * as is a file that is not a JSON5 object. Shared by the writer and the config plan.
 */
export function applyEditPlan(text: string, plan: EditPlan, includedPaths?: ReadonlyMap<string, string>): string {
  const edits = typeof plan === 'function' ? plan(parseRoot(text)) : plan;
  refuseIncludedSections(edits, includedPaths);
  try {
    return applyJson5Edits(text, edits);
  } catch (err) {
    if (err instanceof Json5EditError) throw new AppError(ErrorCode.Conflict, err.message);
    throw err;
  }
}

/** The root file as written (before `$include`s are merged); 409 when it is not a JSON5 object. */
export function parseRoot(text: string): Record<string, unknown> {
  try {
    const doc: unknown = JSON5.parse(text.replace(/^\uFEFF/, ''));
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) return doc as Record<string, unknown>;
  } catch {
    // fall through: the file on disk is broken; say so instead of guessing
  }
  throw new AppError(ErrorCode.Conflict, 'openclaw.json is not a valid JSON5 object right now; fix it before editing through the gateway');
}

/** Text in an $include'd file is not ours to rewrite from the root file: name the file instead. */
function refuseIncludedSections(edits: ReadonlyArray<Json5Edit>, included: ReadonlyMap<string, string> | undefined): void {
  if (!included?.size) return;
  for (const edit of edits) {
    for (let n = 1; n <= edit.path.length; n++) {
      const file = included.get(toDottedPath(edit.path.slice(0, n)));
      if (file) {
        throw new AppError(
          ErrorCode.Conflict,
          `${toDottedPath(edit.path)} is defined in the included file ${file}; edit that file instead`,
        );
      }
    }
  }
}
