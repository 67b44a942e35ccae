import { firstPathDeeperThan } from '../../../common/json-depth';
import { ConfigIssue, toDottedPath } from './config-issue';

/**
 * How deeply objects and arrays may nest in the merged config. The deepest key of the schema sits eight
 * levels down (`agents.list[0].memorySearch.qmd.extraCollections[0].path`); the limit leaves ample room and
 * keeps every later step, which walks the document recursively, far away from the end of the call stack.
 */
export const MAX_NESTING_DEPTH = 64;

/**
 * The first object or array nested deeper than MAX_NESTING_DEPTH, as an issue at its dotted path; undefined
 * when there is none. The root object is level 1. `at` is where `value` sits in the merged document (an
 * included file's content sits at its `$include`), so its segments count toward the depth.
 */
export function nestingIssue(value: unknown, at: ReadonlyArray<string | number> = []): ConfigIssue | undefined {
  const segs = firstPathDeeperThan(value, MAX_NESTING_DEPTH, at);
  return segs && { path: toDottedPath(segs), message: `nested too deeply: objects and arrays may nest at most ${MAX_NESTING_DEPTH} levels` };
}
