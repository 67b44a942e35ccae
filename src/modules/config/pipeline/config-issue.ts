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

/** The segments of a path `toDottedPath` rendered (`a.b[2]["x.y"]` → `a`, `b`, 2, `x.y`); undefined when it is not one. */
export function fromDottedPath(dotted: string): Array<string | number> | undefined {
  const segments: Array<string | number> = [];
  const token = /([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|(\.)/y;
  let expectKey = true;
  while (token.lastIndex < dotted.length) {
    const at = token.lastIndex;
    const m = token.exec(dotted);
    if (!m || m.index !== at) return undefined;
    if (m[4]) {
      if (expectKey) return undefined;
      expectKey = true;
      continue;
    }
    if (m[1] !== undefined) {
      if (!expectKey && segments.length) return undefined;
      segments.push(m[1]);
    } else if (m[2] !== undefined) segments.push(Number(m[2]));
    else segments.push(JSON.parse(m[3]) as string);
    expectKey = false;
  }
  return expectKey ? undefined : segments;
}
