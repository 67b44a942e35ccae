import type { ConfigIssue } from '../pipeline/config-issue';
import { lineOfPath } from './line-of-path';

/**
 * The issues of a candidate root file, each one that names a path but no position given the line where that path
 * (or its deepest parent the text holds) is written — what an editor marks. Issues of other files (an `$include`)
 * and those with a position already are left as they are.
 */
export function locateIssues(issues: ConfigIssue[], rootText: string, rootFile?: string): ConfigIssue[] {
  return issues.map((issue) => {
    if (issue.line !== undefined || !issue.path || (issue.file !== undefined && issue.file !== rootFile)) return issue;
    const line = lineOfPath(rootText, issue.path);
    return line === undefined ? issue : { ...issue, line };
  });
}
