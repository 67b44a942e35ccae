import { suggestClosest } from '../../../common/text/did-you-mean';
import { isRecord } from '../../../common/is-record';
import { NO_URL_CREDENTIALS, type ErrorObject } from './plugin-ajv';

export type Segment = string | number;

/** One thing a JSON Schema refused, at a document path, worded like the core schema's messages. */
export interface SchemaProblem {
  path: Segment[];
  message: string;
}

export interface SchemaIssueOptions {
  /** How a refused value is shown (through the config's quoter, which names a `${VAR}` instead of its value). */
  quote: (path: Segment[], value: string) => string;
  /** Paths whose values are never shown. */
  isSecret: (path: Segment[]) => boolean;
}

/**
 * ajv's errors as the config's messages: the path below `base` (`plugins.entries.x.config` + `/a/0` →
 * `…config.a[0]`), "is required" at the missing key, "unknown key (did you mean …?)" at the extra one,
 * "expected string (got a number)" for a wrong type. One message per path and wording.
 */
export function schemaProblems(errors: ReadonlyArray<ErrorObject>, base: Segment[], options: SchemaIssueOptions): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  const badNames = invalidNames(errors);
  for (const error of errors) {
    const at = [...base, ...pointerSegments(error.instancePath)];
    const names = error.keyword === 'propertyNames' ? badNames.get(error.instancePath) : undefined;
    const problem = names ? { path: at, message: names } : problemOf(error, at, options);
    if (!problem) continue;
    const key = `${JSON.stringify(problem.path)} ${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(problem);
  }
  return out;
}

/**
 * A map whose keys must match `propertyNames` (account ids, say) gets one message per map, worded as the core schema's
 * maps are: `invalid name "Two Words", "B": names must match ^[a-z0-9]…$` (what a name must be, else each one's
 * problem), by the map's instance path.
 */
function invalidNames(errors: ReadonlyArray<ErrorObject>): Map<string, string> {
  const byMap = new Map<string, { names: string[]; rules: Set<string> }>();
  for (const error of errors) {
    // ajv reports each refused name twice: the rule it failed (with `propertyName`), then `propertyNames` itself.
    if (error.propertyName === undefined || error.keyword === 'propertyNames') continue;
    let entry = byMap.get(error.instancePath);
    if (!entry) byMap.set(error.instancePath, (entry = { names: [], rules: new Set() }));
    if (!entry.names.includes(error.propertyName)) entry.names.push(error.propertyName);
    const pattern = (error.params as { pattern?: unknown }).pattern;
    entry.rules.add(error.keyword === 'pattern' && typeof pattern === 'string' ? `names must match ${pattern}` : (error.message ?? error.keyword));
  }
  const out = new Map<string, string>();
  for (const [pointer, { names, rules }] of byMap) {
    out.set(pointer, `invalid name ${names.map((n) => JSON.stringify(n)).join(', ')}: ${[...rules].join('; ')}`);
  }
  return out;
}

function problemOf(error: ErrorObject, at: Segment[], options: SchemaIssueOptions): SchemaProblem | undefined {
  const params = error.params as Record<string, unknown>;
  // A refused map key is said once for the whole map (invalidNames).
  if (error.propertyName !== undefined) return undefined;
  switch (error.keyword) {
    case 'required':
      return { path: [...at, String(params.missingProperty)], message: 'is required' };
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const schema = error.parentSchema;
      const properties = isRecord(schema) && isRecord(schema.properties) ? Object.keys(schema.properties) : [];
      const hint = suggestClosest(key, properties);
      return { path: [...at, key], message: `unknown key${hint ? ` (did you mean "${hint}"?)` : ''}` };
    }
    case 'type':
      return { path: at, message: `expected ${String(params.type).replace(/,/g, ' or ')} (got ${describeType(error.data)})` };
    // The branches' own errors say what is wrong; "must match a schema in anyOf" adds nothing.
    case 'anyOf':
    case 'oneOf':
    case 'if':
      return undefined;
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues.map((v) => JSON.stringify(v)).join(', ') : '';
      return { path: at, message: `must be one of: ${allowed}${shown(error.data, at, options)}` };
    }
    // The URL is never quoted: its credentials are what is wrong with it.
    case NO_URL_CREDENTIALS:
      return { path: at, message: error.message ?? 'must not contain credentials (user:password@)' };
    default:
      return { path: at, message: `${error.message ?? `fails ${error.keyword}`}${shown(error.data, at, options)}` };
  }
}

function shown(value: unknown, at: Segment[], options: SchemaIssueOptions): string {
  if (options.isSecret(at)) return '';
  if (typeof value === 'string') return ` (got ${options.quote(at, value)})`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return ` (got ${String(value)})`;
  return '';
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** `/a/0/b~1c` → `['a', 0, 'b/c']` (a segment of digits is taken as a list index). */
function pointerSegments(pointer: string): Segment[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}
