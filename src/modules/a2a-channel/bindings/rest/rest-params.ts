import { invalidParams } from '../../protocol/errors';
import { protoNameOf } from '../../protocol/proto-field-names';
import type { QueryValueKind, RestRoute } from './rest-routes';

/** The `A2A-Version` service parameter may be sent as a query parameter (versions.ts reads it); it is no operation field. */
const SERVICE_PARAMETER = /^a2a-version$/i;
/** Every request message of the operations that take a query has a `tenant` field, which the path prefix also sets. */
const TENANT: Readonly<Record<string, QueryValueKind>> = { tenant: 'string' };
/** How much of a caller's parameter name an error message repeats. */
const MAX_ECHOED_NAME = 64;
const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * A query value as the JSON value the shared params validators (method-params.ts) check: numbers as decimal text,
 * booleans as `true`/`false` (the specification's query conventions). Text that is not of its kind stays text, so the
 * validator refuses it with the same words a JSON-RPC caller gets ("pageSize must be an integer 1..100").
 */
function typed(kind: QueryValueKind, text: string): unknown {
  if (kind === 'integer') return DECIMAL_INTEGER.test(text) ? Number(text) : text;
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** The kind of a query parameter the route takes, under its JSON name or its proto name (`history_length`). */
function kindOf(taken: Readonly<Record<string, QueryValueKind>>, name: string): QueryValueKind | undefined {
  for (const [jsonName, kind] of Object.entries(taken)) if (name === jsonName || name === protoNameOf(jsonName)) return kind;
  return undefined;
}

/**
 * The query as params. A proto name stays as sent: the params validator reads it as its JSON name and refuses a
 * field given under both names, as it does for a JSON body.
 */
function queryParams(route: RestRoute, query: string): Record<string, unknown> {
  const taken = route.query ? { ...route.query, ...TENANT } : {};
  const search = new URLSearchParams(query);
  const out: Record<string, unknown> = {};
  for (const name of new Set(search.keys())) {
    if (SERVICE_PARAMETER.test(name)) continue;
    const kind = kindOf(taken, name);
    if (kind === undefined) {
      const names = Object.keys(taken);
      const offer = names.length ? `it takes ${names.join(', ')}` : 'it takes none';
      throw invalidParams(
        `unknown query parameter ${JSON.stringify(name.slice(0, MAX_ECHOED_NAME))} for ${route.httpMethod} ${route.template}: ${offer}`,
      );
    }
    const values = search.getAll(name);
    if (values.length > 1) throw invalidParams(`query parameter ${name} is given more than once`);
    // An empty value is an unset field, as in the proto's JSON form.
    if (values[0] !== '') out[name] = typed(kind, values[0]);
  }
  return out;
}

/**
 * The params of an HTTP+JSON call in the shape the A2A method takes them over JSON-RPC: the body object (routes with a
 * body; `undefined` when the request had none), the route's query parameters, and the path variables, which win over
 * the same field of the body (the path names the resource). Throws -32602-equivalent errors naming what is wrong.
 */
export function restCallParams(route: RestRoute, vars: Record<string, string>, query: string, body: unknown): Record<string, unknown> {
  let fromBody: Record<string, unknown> = {};
  if (route.body && body !== undefined) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidParams('the request body must be a JSON object');
    fromBody = body as Record<string, unknown>;
  }
  return { ...fromBody, ...queryParams(route, query), ...vars };
}
