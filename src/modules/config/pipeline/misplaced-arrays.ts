import { isPlainObject } from '../../../common/is-record';
import { OpenClawConfig } from '../schema/openclaw.schema';
import { nestedShapesOf } from '../schema/schema-decorators';
import { ConfigIssue, toDottedPath } from './config-issue';

type Segment = string | number;

/**
 * One issue per array written where the schema nests an object: a section or sub-object
 * (`tools.sessions: [...]`), an element of a list of objects (`agents.list: [[...]]`), an entry of a map
 * (`peers: { p: [...] }`). class-validator accepts those (it validates the array's elements against the
 * object's class), and normalization would then read fields that are not there. Other wrong types are
 * left to the validators, which already name them.
 */
export function arraysWhereObjectsBelong(doc: Record<string, unknown>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const misplaced = (segs: Segment[]) => issues.push({ path: toDottedPath(segs), message: 'must be an object (got an array)' });
  // The schema is a fixed tree a few levels deep, so the walk follows it and needs no stack of its own.
  const visit = (node: Record<string, unknown>, cls: new () => object, segs: Segment[]): void => {
    for (const [key, shape] of nestedShapesOf(cls)) {
      if (!Object.hasOwn(node, key)) continue;
      const child = node[key];
      const entries: Array<[Segment[], unknown]> =
        shape.kind === 'object'
          ? [[[...segs, key], child]]
          : shape.kind === 'array'
            ? Array.isArray(child)
              ? child.map((e, i): [Segment[], unknown] => [[...segs, key, i], e])
              : []
            : isPlainObject(child)
              ? Object.entries(child).map(([name, e]): [Segment[], unknown] => [[...segs, key, name], e])
              : [];
      for (const [at, value] of entries) {
        if (Array.isArray(value)) misplaced(at);
        else if (isPlainObject(value)) visit(value, shape.cls(), at);
      }
    }
  };
  visit(doc, OpenClawConfig, []);
  return issues;
}
