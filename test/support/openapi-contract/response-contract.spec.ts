import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ResponseContract, type OpenApiDocument } from './response-contract';
import type { RecordedResponse } from '../../../src/common/http/response-recorder';

/** The checker itself: it must catch a response that lies about its schema, and let through one that does not. */
const PROBLEM = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDto' } } };
const DOCUMENT: OpenApiDocument = {
  paths: {
    '/admin/things/{id}': {
      get: {
        responses: {
          '200': { description: 'a thing', content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingDto' } } } },
          '404': { description: 'none', content: PROBLEM },
        },
      },
    },
    '/admin/things/export': {
      get: {
        responses: {
          '200': { description: 'lines', content: { 'application/x-ndjson': { schema: { $ref: '#/components/schemas/ThingDto' } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      ThingDto: {
        type: 'object',
        properties: {
          id: { type: 'string', example: 't1' },
          count: { type: 'integer', nullable: true },
          state: { type: 'string', enum: ['on', 'off'] },
          owner: { nullable: true, allOf: [{ $ref: '#/components/schemas/OwnerDto' }] },
        },
        required: ['id', 'count'],
      },
      OwnerDto: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      ProblemDto: {
        type: 'object',
        properties: { status: { type: 'number' }, detail: { type: 'string' } },
        required: ['status', 'detail'],
      },
    },
  },
};

const json = (
  method: string,
  url: string,
  status: number,
  body: unknown,
  contentType = 'application/json; charset=utf-8',
): RecordedResponse => ({
  method,
  url,
  status,
  contentType,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('ResponseContract', () => {
  const contract = new ResponseContract(DOCUMENT);

  it('accepts responses the document describes, nullable fields and $refs included', () => {
    expect(contract.check(json('GET', '/admin/things/t1', 200, { id: 't1', count: null, owner: null }))).toEqual([]);
    expect(contract.check(json('GET', '/admin/things/t1?x=1', 200, { id: 't1', count: 3, state: 'on', owner: { name: 'ann' } }))).toEqual(
      [],
    );
    expect(contract.check(json('GET', '/Admin/Things/t1', 404, { status: 404, detail: 'no thing' }, 'application/problem+json'))).toEqual(
      [],
    );
  });

  it('names the operation, status, JSON pointer and message of a body that breaks its schema', () => {
    const found = contract.check(json('GET', '/admin/things/t1', 200, { id: 7, count: 'three', state: 'dim', owner: {} }));
    expect(found.map((v) => [v.operation, v.status, v.pointer, v.message])).toEqual([
      ['GET /admin/things/{id}', 200, '/id', 'must be string'],
      ['GET /admin/things/{id}', 200, '/count', 'must be integer,null'],
      ['GET /admin/things/{id}', 200, '/state', 'must be equal to one of the allowed values ("on", "off")'],
      ['GET /admin/things/{id}', 200, '/owner', "must have required property 'name'"],
      ['GET /admin/things/{id}', 200, '/owner', 'must be null'],
      ['GET /admin/things/{id}', 200, '/owner', 'must match a schema in anyOf'],
    ]);
    // A field the schema requires, sent as null where it is not nullable, or missing.
    expect(contract.check(json('GET', '/admin/things/t1', 200, { count: 1 }))[0]).toMatchObject({
      pointer: '',
      message: "must have required property 'id'",
    });
  });

  it('counts undocumented statuses, media types, operations and bodies as violations', () => {
    expect(
      contract.check(json('GET', '/admin/things/t1', 500, { status: 500, detail: 'boom' }, 'application/problem+json'))[0].message,
    ).toBe('status 500 is not documented (documented: 200, 404)');
    expect(contract.check(json('GET', '/admin/things/t1', 404, { status: 404, detail: 'x' }))[0].message).toBe(
      'content-type application/json is not documented (documented: application/problem+json)',
    );
    expect(contract.check(json('POST', '/admin/things/t1', 200, {}))[0].message).toBe('no POST operation on /admin/things/{id}');
    expect(contract.check(json('GET', '/admin/widgets', 200, []))[0]).toMatchObject({
      operation: 'GET /admin/widgets',
      message: 'no operation in the document matches this path',
    });
    expect(contract.check(json('GET', '/admin/things/t1', 200, 'not json'))[0].message).toBe('the body is not JSON');
  });

  it('lets through what says nothing is there, and surfaces whose contract is another document', () => {
    expect(contract.check(json('GET', '/admin/widgets', 404, { status: 404, detail: 'no route' }, 'application/problem+json'))).toEqual([]);
    expect(contract.check(json('GET', '/admin/widgets', 401, { status: 401 }, 'application/problem+json'))[0].message).toBe(
      "must have required property 'detail'",
    );
    expect(contract.check(json('POST', '/a2a/v1', 200, { jsonrpc: '2.0' }))).toEqual([]);
    expect(contract.check(json('POST', 'http://127.0.0.1:1/a2a/v1/message:send', 200, {}))).toEqual([]);
  });

  it('checks every line of a JSON Lines body, and prefers a literal segment over a parameter', () => {
    const body = `${JSON.stringify({ id: 'a', count: 1 })}\n${JSON.stringify({ id: 'b' })}\n`;
    const found = contract.check(json('GET', '/admin/things/export', 200, body, 'application/x-ndjson'));
    expect(found).toEqual([
      expect.objectContaining({ operation: 'GET /admin/things/export', message: "line 2: must have required property 'count'" }),
    ]);
  });

  it('runs Ajv in strict mode: a schema keyword Ajv does not know is an error, not ignored', () => {
    const loose = {
      ...DOCUMENT,
      components: { schemas: { ...DOCUMENT.components!.schemas, OwnerDto: { type: 'object', propertees: {} } } },
    };
    expect(() => new ResponseContract(loose)).toThrow(/strict mode: unknown keyword: "propertees"/);
  });

  it('catches a lie against the published document: a status field of the wrong shape', () => {
    const published = new ResponseContract(
      JSON.parse(readFileSync(path.join(__dirname, '../../../schemas/openapi.json'), 'utf8')) as OpenApiDocument,
    );
    const status = {
      revision: '3a4f9c1b7c22',
      loadedAt: '2026-12-01T10:00:00.000Z',
      configPath: '/etc/clawgate/openclaw.json',
      reloadMode: 'hybrid',
      files: ['/etc/clawgate/openclaw.json'],
      pendingRestart: [],
      warnings: [],
      lastError: null,
    };
    expect(published.check(json('GET', '/admin/config/status', 200, status))).toEqual([]);
    const lie = published.check(
      json('GET', '/admin/config/status', 200, { ...status, lastError: 'yesterday', pendingRestart: 'gateway.port' }),
    );
    expect(lie.map((v) => v.pointer)).toEqual(expect.arrayContaining(['/lastError', '/pendingRestart']));
  });
});
