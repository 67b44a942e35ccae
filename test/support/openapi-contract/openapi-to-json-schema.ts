/**
 * OpenAPI 3.0 schema objects as JSON Schema for Ajv: `nullable: true` becomes a `null` alternative, `$ref`s
 * to components point into the document registered as DOCUMENT_ID, and the OpenAPI-only annotations Ajv's
 * strict mode would refuse (`example`, `xml`, `externalDocs`) are dropped. Nothing is loosened: every other
 * keyword reaches the validator as written.
 */

/** The $id under which the converted components are registered with Ajv. */
export const DOCUMENT_ID = 'openapi.json';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const OPENAPI_ONLY_KEYWORDS = new Set(['example', 'xml', 'externalDocs', 'nullable']);

export function toJsonSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (OPENAPI_ONLY_KEYWORDS.has(key)) continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = refOf(value);
    else if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      // Property names are not schemas: convert their values only.
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub)]));
    } else if (key === 'enum' || key === 'required' || key === 'default' || key === 'const') out[key] = value;
    else out[key] = toJsonSchema(value);
  }
  return schema.nullable === true ? nullableOf(out) : out;
}

const COMPONENT_SCHEMAS = '#/components/schemas/';

/** A component $ref as a reference into the registered definitions. */
function refOf(ref: string): string {
  if (!ref.startsWith(COMPONENT_SCHEMAS)) throw new Error(`unsupported $ref ${ref}: only ${COMPONENT_SCHEMAS}… is resolved`);
  return `${DOCUMENT_ID}#/definitions/${ref.slice(COMPONENT_SCHEMAS.length)}`;
}

/** `schema` or null. A plain `type` gets `null` added; anything else (a $ref, an enum, allOf) an alternative. */
function nullableOf(schema: JsonObject): JsonObject {
  const { type } = schema;
  const simple = typeof type === 'string' && !('enum' in schema) && !('$ref' in schema) && !('allOf' in schema);
  if (simple) return { ...schema, type: [type, 'null'] };
  const description = schema.description;
  const rest = { ...schema };
  delete rest.description;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}

/** The document's component schemas, converted, as one schema Ajv can register under DOCUMENT_ID. */
export function componentsDocument(document: { components?: { schemas?: Record<string, Json> } }): JsonObject {
  const schemas = document.components?.schemas ?? {};
  return { $id: DOCUMENT_ID, definitions: Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, toJsonSchema(s)])) };
}
