import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { RecordedResponse } from '../../../src/common/http/response-recorder';
import { componentsDocument, DOCUMENT_ID, toJsonSchema } from './openapi-to-json-schema';

/**
 * The API contract: every response the gateway sent must be one its OpenAPI document describes — the
 * operation (method and path template), the status, the media type, and a body valid against the schema
 * (Ajv, strict mode). Surfaces whose contract is another document are outside it (OUT_OF_SCOPE).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface MediaTypeObject {
  schema?: Json;
}
interface ResponseObject {
  description?: string;
  content?: Record<string, MediaTypeObject>;
}
interface OperationObject {
  responses?: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Json> };
}

export interface Violation {
  /** `GET /admin/sessions/{key}`, or the method and path when no operation matched. */
  operation: string;
  status: number;
  /** JSON pointer into the body ('' = the whole body). */
  pointer: string;
  message: string;
  /** One request that showed it. */
  example: string;
}

/** Paths the document does not describe on purpose: each with the document that is their contract. */
export const OUT_OF_SCOPE: { prefix: string; reason: string }[] = [
  { prefix: '/a2a/', reason: 'the A2A protocol (JSON-RPC and HTTP+JSON bindings): its contract is the A2A specification' },
  { prefix: '/v1/', reason: "the OpenAI-compatible endpoint: its contract is OpenAI's API" },
  { prefix: '/mcp', reason: 'the MCP server (Streamable HTTP): its contract is the Model Context Protocol specification' },
  { prefix: '/docs', reason: 'the OpenAPI document itself and its viewer' },
  { prefix: '/plugins/', reason: "plugins' own routes (docs/plugins.md): each plugin's contract is its own" },
  { prefix: '/console', reason: 'the web console: static files, not an API (docs/console.md)' },
];

/** Answers to a request no operation matches that say so; anything else there is an undocumented operation. */
const UNROUTED_STATUSES = new Set([401, 403, 404, 405]);
const PROBLEM_JSON = 'application/problem+json';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

interface Route {
  template: string;
  pattern: RegExp;
  /** Literal segments: the more, the more specific (`/sessions/export` before `/sessions/{key}`). */
  literals: number;
}

export class ResponseContract {
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    this.ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
    this.ajv.addSchema(componentsDocument(document));
    // Compiled now, so a schema strict mode refuses (an unknown keyword, a required property never defined) fails at once.
    for (const name of Object.keys(document.components?.schemas ?? {})) this.ajv.getSchema(`${DOCUMENT_ID}#/definitions/${name}`);
    this.routes = Object.keys(document.paths)
      .map((template) => {
        const segments = template.split('/');
        const source = segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : escapeRegExp(s))).join('/');
        // Case-insensitive like the express router the gateway routes with.
        return { template, pattern: new RegExp(`^${source}/?$`, 'i'), literals: segments.filter((s) => !s.startsWith('{')).length };
      })
      .sort((a, b) => b.literals - a.literals);
  }

  /** What is wrong with one recorded response ([] when the document describes it). */
  check(record: RecordedResponse): Violation[] {
    const path = pathOf(record.url);
    if (OUT_OF_SCOPE.some((s) => path.startsWith(s.prefix))) return [];
    const method = record.method.toLowerCase();
    const example = `${record.method} ${record.url} -> ${record.status}`;
    const route = this.routes.find((r) => r.pattern.test(path));
    const operation = route ? this.document.paths[route.template][method] : undefined;
    if (!route || !operation || !HTTP_METHODS.has(method)) {
      // Nothing is there and the gateway says so (or its admin gate refuses before routing, so that an anonymous
      // caller cannot tell a route from none): consistent with the document, when the answer is a problem.
      if (UNROUTED_STATUSES.has(record.status)) return this.checkUnrouted(record, example);
      const what = route ? `no ${record.method} operation on ${route.template}` : 'no operation in the document matches this path';
      return [{ operation: `${record.method} ${path}`, status: record.status, pointer: '', message: what, example }];
    }
    return this.checkAgainst(operation, `${record.method} ${route.template}`, record, example);
  }

  /** The record against one operation's responses. */
  private checkAgainst(operation: OperationObject, name: string, record: RecordedResponse, example: string): Violation[] {
    const violation = (pointer: string, message: string): Violation => ({
      operation: name,
      status: record.status,
      pointer,
      message,
      example,
    });
    const responses = operation.responses ?? {};
    const statusKey = [String(record.status), `${String(record.status)[0]}XX`, 'default'].find((k) => k in responses);
    if (!statusKey) return [violation('', `status ${record.status} is not documented (documented: ${Object.keys(responses).join(', ')})`)];
    const content = responses[statusKey].content ?? {};
    const body = record.body ?? '';
    if (Object.keys(content).length === 0) {
      return body.length && record.method !== 'HEAD' ? [violation('', 'a body was sent where the document declares none')] : [];
    }
    const mediaType = (record.contentType ?? '').split(';')[0].trim().toLowerCase();
    const mediaKey = Object.keys(content).find((k) => k.toLowerCase() === mediaType);
    if (!mediaKey) {
      return [violation('', `content-type ${mediaType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`)];
    }
    const schema = content[mediaKey].schema;
    if (schema === undefined || record.body === undefined || record.method === 'HEAD') return [];
    const validate = this.validatorFor(`${name} ${statusKey} ${mediaKey}`, schema);
    const documents = mediaType === 'application/x-ndjson' ? body.split('\n').filter((l) => l.trim()) : isJson(mediaType) ? [body] : [];
    const found: Violation[] = [];
    documents.forEach((text, line) => {
      const at = documents.length > 1 || mediaType === 'application/x-ndjson' ? `line ${line + 1}: ` : '';
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        found.push(violation('', `${at}the body is not JSON`));
        return;
      }
      if (!validate(value)) for (const e of validate.errors ?? []) found.push(violation(e.instancePath, `${at}${describeError(e)}`));
    });
    return found;
  }

  private checkUnrouted(record: RecordedResponse, example: string): Violation[] {
    const path = pathOf(record.url);
    const operation = {
      responses: { [record.status]: { content: { [PROBLEM_JSON]: { schema: { $ref: '#/components/schemas/ProblemDto' } } } } },
    };
    const name = `${record.method} ${path} (no operation)`;
    return this.checkAgainst(operation, name, record, example);
  }

  private validatorFor(key: string, schema: Json): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema) as object);
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/** The path of a request target: origin-form, or absolute-form (`http://host/a2a/v1/tasks`, which the gateway serves too). */
function pathOf(target: string): string {
  const path = /^https?:\/\//i.test(target) ? new URL(target).pathname : target.split('?')[0];
  return (path || '/').replace(/\/{2,}/g, '/');
}

function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function describeError(e: ErrorObject): string {
  const params =
    e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})` : '';
  const allowed =
    e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')})` : '';
  return `${e.message ?? e.keyword}${params}${allowed}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Violations of many responses, the same one once (with how many responses showed it). */
export function groupViolations(violations: Violation[]): { violation: Violation; count: number }[] {
  const groups = new Map<string, { violation: Violation; count: number }>();
  for (const v of violations) {
    const key = `${v.operation}\u0000${v.status}\u0000${v.pointer}\u0000${v.message}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { violation: v, count: 1 });
  }
  return [...groups.values()].sort(
    (a, b) => a.violation.operation.localeCompare(b.violation.operation) || a.violation.status - b.violation.status,
  );
}

export function formatViolations(groups: { violation: Violation; count: number }[]): string {
  return groups
    .map(({ violation: v, count }) => `${v.operation} ${v.status} ${v.pointer || '(body)'}: ${v.message} [${count}× e.g. ${v.example}]`)
    .join('\n');
}

export { DOCUMENT_ID };
