import { promises as fs } from 'node:fs';
import Ajv from 'ajv';
import request from 'supertest';
import { OPENAPI_TAGS } from '../../src/openapi-document';
import { OPENAPI_FILE, serializeOpenApi } from '../../src/cli/openapi-export.cli';
import { componentsDocument, toJsonSchema } from '../support/openapi-contract/openapi-to-json-schema';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * The document at /docs-json as a reader and a generated client meet it: published unchanged in
 * schemas/openapi.json, every response described, tags ordered and explained, examples that fit their schemas.
 * (That every response matches it is checked over the whole suite: test/support/openapi-contract.)
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface MediaType {
  schema?: Json;
  example?: Json;
  examples?: Record<string, { value?: Json }>;
}
interface Operation {
  tags?: string[];
  responses: Record<string, { description?: string; content?: Record<string, MediaType> }>;
  requestBody?: { content?: Record<string, MediaType> };
}
interface Document {
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, Json & { example?: Json }> }>;
    securitySchemes: Record<string, Record<string, string>>;
  };
}

describe('OpenAPI document (/docs-json)', () => {
  let gw: TestGateway;
  let doc: Document;
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
    );

  beforeAll(async () => {
    gw = await startTestGateway('{ agents: { list: [{ id: "main" }] } }');
    doc = (await request(gw.url).get('/docs-json').expect(200)).body as Document;
  });
  afterAll(() => gw.stop());

  it('is what schemas/openapi.json publishes', async () => {
    const published = await fs.readFile(OPENAPI_FILE, 'utf8');
    if (serializeOpenApi(doc) !== published) {
      throw new Error(
        'schemas/openapi.json differs from the document the gateway serves at /docs-json: run `npm run openapi` and commit the result',
      );
    }
  });

  it('describes every response', () => {
    const empty = operations().flatMap(({ name, op }) =>
      Object.entries(op.responses)
        .filter(([, r]) => !r.description?.trim())
        .map(([status]) => `${name} ${status}`),
    );
    expect(empty).toEqual([]);
    expect(operations().length).toBeGreaterThan(30);
  });

  it('declares its tags in reading order, each described, and files every operation under a declared one', () => {
    expect(doc.tags).toEqual(OPENAPI_TAGS);
    expect((doc.tags ?? []).filter((t) => !t.description?.trim())).toEqual([]);
    const declared = new Set(OPENAPI_TAGS.map((t) => t.name));
    const misfiled = operations().filter(({ op }) => !op.tags?.length || op.tags.some((t) => !declared.has(t)));
    expect(misfiled.map(({ name, op }) => `${name}: ${JSON.stringify(op.tags)}`)).toEqual([]);
  });

  it('claims no JWT for the bearer tokens, which are opaque strings compared with the config', () => {
    for (const scheme of Object.values(doc.components.securitySchemes)) expect(scheme).not.toHaveProperty('bearerFormat');
  });

  it('gives examples that fit their schemas, and an agent example that does not claim to be the default', () => {
    const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
    ajv.addSchema(componentsDocument(doc));
    const misfits: string[] = [];
    let checked = 0;
    const check = (where: string, schema: Json | undefined, example: Json | undefined) => {
      if (schema === undefined || example === undefined) return;
      checked += 1;
      const validate = ajv.compile(toJsonSchema(schema) as object);
      if (!validate(example)) misfits.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    };
    for (const { name, op } of operations()) {
      const media = [
        ...Object.entries(op.responses).map(([status, r]) => [status, r.content] as const),
        ['request', op.requestBody?.content] as const,
      ];
      for (const [at, content] of media) {
        for (const [type, m] of Object.entries(content ?? {})) {
          if (type === 'application/x-ndjson' || type === 'text/event-stream' || type.startsWith('text/')) continue;
          check(`${name} ${at} ${type}`, m.schema, m.example);
          for (const [key, e] of Object.entries(m.examples ?? {})) check(`${name} ${at} ${type} (${key})`, m.schema, e.value);
        }
      }
    }
    for (const [component, schema] of Object.entries(doc.components.schemas)) {
      for (const [property, sub] of Object.entries(schema.properties ?? {})) {
        if (sub && typeof sub === 'object' && !Array.isArray(sub)) check(`${component}.${property}`, sub, sub.example);
      }
    }
    expect(misfits).toEqual([]);
    expect(checked).toBeGreaterThan(100);
    // Swagger UI builds the request from the property examples: `default: true` would make a second default agent.
    expect(doc.components.schemas.CreateAgentDto.properties?.default).toMatchObject({ example: false });
  });
});
