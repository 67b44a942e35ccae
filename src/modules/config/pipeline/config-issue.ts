import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';

/**
 * One problem found while loading a config. Every pipeline step reports problems in this shape so the
 * CLI, the admin API and the logs can print them the same way: `<path>: <message>` plus the file
 * position when the step knows it.
 */
export interface ConfigIssue {
  /** Dotted path inside the merged config, e.g. `agents.list[2].modle`; `""` for the whole document. */
  path: string;
  /** What was wrong and what was expected. Never contains a secret value. */
  message: string;
  /** File the problem comes from, when known (parse errors, include errors). */
  file?: string;
  line?: number;
  column?: number;
}

/** Thrown by a pipeline step that cannot continue; carries every issue it found. */
export class ConfigLoadError extends AppError {
  constructor(public readonly issues: ConfigIssue[]) {
    super(
      ErrorCode.ConfigInvalid,
      issues.map(formatConfigIssue).join('\n'),
      issues.map((issue) => ({ ...issue })),
    );
    this.name = 'ConfigLoadError';
  }
}

export function formatConfigIssue(issue: ConfigIssue): string {
  const where = issue.file ? `${issue.file}${issue.line !== undefined ? `:${issue.line}:${issue.column ?? 1}` : ''}: ` : '';
  return `${where}${issue.path ? `${issue.path}: ` : ''}${issue.message}`;
}

/** Renders a path of keys/indexes as `a.b[2].c` (keys that are not identifiers get `["..."]`). */
export function toDottedPath(segments: ReadonlyArray<string | number>): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}
