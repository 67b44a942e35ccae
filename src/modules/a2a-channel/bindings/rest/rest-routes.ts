import { A2A_METHODS } from '../../../../common/a2a-protocol';

/** How a query parameter's text becomes the JSON value the shared params validators check. */
export type QueryValueKind = 'string' | 'integer' | 'boolean';

/**
 * One operation of the HTTP+JSON binding: the HTTP method and path template of the specification's method
 * mapping (and the `google.api.http` annotations of a2a.proto), and the A2A method whose call it is.
 */
export interface RestRoute {
  httpMethod: 'GET' | 'POST' | 'DELETE';
  /** Segments after the base URL; `{name}` is one path segment bound to param `name`; `:verb` ends the last. */
  template: string;
  /** The A2A 1.0 method name: the call, its errors and its unsupported answer are exactly the JSON-RPC method's. */
  a2aMethod: string;
  /** The request body is the params object (`body: "*"`); `optional`: it may also be empty. Absent: no body is read. */
  body?: 'required' | 'optional';
  /** The query parameters the operation takes (camelCase proto field names); any other one is refused. */
  query?: Readonly<Record<string, QueryValueKind>>;
}

const PUSH_CONFIGS = '/tasks/{taskId}/pushNotificationConfigs';

/**
 * The routes, in matching order. `SubscribeToTask` is GET in a2a.proto and POST in the specification's text
 * (and in @a2a-js/sdk's client); both are answered. The `/{tenant}` form of every route is matched by
 * matchRestRoute, not listed.
 */
export const REST_ROUTES: readonly RestRoute[] = [
  { httpMethod: 'POST', template: '/message:send', a2aMethod: A2A_METHODS.sendMessage, body: 'required' },
  { httpMethod: 'POST', template: '/message:stream', a2aMethod: 'SendStreamingMessage', body: 'required' },
  { httpMethod: 'GET', template: '/tasks/{id}', a2aMethod: A2A_METHODS.getTask, query: { historyLength: 'integer' } },
  {
    httpMethod: 'GET',
    template: '/tasks',
    a2aMethod: A2A_METHODS.listTasks,
    query: {
      contextId: 'string',
      status: 'string',
      pageSize: 'integer',
      pageToken: 'string',
      historyLength: 'integer',
      statusTimestampAfter: 'string',
      includeArtifacts: 'boolean',
    },
  },
  { httpMethod: 'POST', template: '/tasks/{id}:cancel', a2aMethod: A2A_METHODS.cancelTask, body: 'optional' },
  { httpMethod: 'GET', template: '/tasks/{id}:subscribe', a2aMethod: 'SubscribeToTask' },
  { httpMethod: 'POST', template: '/tasks/{id}:subscribe', a2aMethod: 'SubscribeToTask', body: 'optional' },
  { httpMethod: 'POST', template: PUSH_CONFIGS, a2aMethod: 'CreateTaskPushNotificationConfig', body: 'required' },
  { httpMethod: 'GET', template: PUSH_CONFIGS, a2aMethod: 'ListTaskPushNotificationConfigs' },
  { httpMethod: 'GET', template: `${PUSH_CONFIGS}/{id}`, a2aMethod: 'GetTaskPushNotificationConfig' },
  { httpMethod: 'DELETE', template: `${PUSH_CONFIGS}/{id}`, a2aMethod: 'DeleteTaskPushNotificationConfig' },
  { httpMethod: 'GET', template: '/extendedAgentCard', a2aMethod: A2A_METHODS.getExtendedAgentCard },
];

export type RestMatch =
  /** `vars`: the decoded path variables, `tenant` included when the path had the `/{tenant}` prefix. */
  | { kind: 'route'; route: RestRoute; vars: Record<string, string> }
  /** The path names an operation, but not with this HTTP method; `allow`: the methods it has. */
  | { kind: 'method-not-allowed'; allow: string[] }
  /** A path variable is not valid percent-encoding. */
  | { kind: 'bad-encoding' }
  | { kind: 'not-found' };

interface Template {
  route: RestRoute;
  segments: string[];
  verb: string | undefined;
}

/** A path split google.api.http's way: segments, and a custom verb after the last `:` of the last segment. */
function split(path: string): { segments: string[]; verb: string | undefined } {
  const segments = path.split('/').slice(1);
  const last = segments[segments.length - 1] ?? '';
  const colon = last.lastIndexOf(':');
  if (colon < 0) return { segments, verb: undefined };
  segments[segments.length - 1] = last.slice(0, colon);
  return { segments, verb: last.slice(colon + 1) };
}

const TEMPLATES: readonly Template[] = REST_ROUTES.map((route) => ({ route, ...split(route.template) }));

type Bound = { route: RestRoute; raw: Record<string, string> };

/** The routes whose template the segments fit, whatever their HTTP method, with the raw (still encoded) variables. */
function fitting(segments: string[], verb: string | undefined): Bound[] {
  const out: Bound[] = [];
  for (const t of TEMPLATES) {
    if (t.verb !== verb || t.segments.length !== segments.length) continue;
    const raw: Record<string, string> = {};
    const fits = t.segments.every((part, i) => {
      if (!part.startsWith('{')) return part === segments[i];
      raw[part.slice(1, -1)] = segments[i];
      return true;
    });
    if (fits) out.push({ route: t.route, raw });
  }
  return out;
}

function decoded(raw: Record<string, string>): Record<string, string> | undefined {
  try {
    return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, decodeURIComponent(value)]));
  } catch {
    return undefined;
  }
}

/**
 * The route of a request. `path` is below the base URL (`/tasks/abc:cancel` for `/a2a/v1/tasks/abc:cancel`), as sent
 * (still percent-encoded: a `%3A` in a task id is part of the id, a `:` starts the verb). One trailing `/` is
 * ignored. The plain templates are tried before their `/{tenant}` form, so `/tasks/tasks` is the task `tasks`.
 */
export function matchRestRoute(httpMethod: string, path: string): RestMatch {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const { segments, verb } = split(trimmed);
  if (segments.some((s) => s === '')) return { kind: 'not-found' };
  const plain = fitting(segments, verb);
  const tenanted = segments.length > 1 ? fitting(segments.slice(1), verb) : [];
  const tenant = segments[0];
  const candidates: Bound[] = [...plain, ...tenanted.map((b) => ({ route: b.route, raw: { ...b.raw, tenant } }))];
  const chosen = candidates.find((b) => b.route.httpMethod === httpMethod);
  if (chosen) {
    const vars = decoded(chosen.raw);
    return vars ? { kind: 'route', route: chosen.route, vars } : { kind: 'bad-encoding' };
  }
  if (candidates.length) return { kind: 'method-not-allowed', allow: [...new Set(candidates.map((b) => b.route.httpMethod))] };
  return { kind: 'not-found' };
}
