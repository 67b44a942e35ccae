import Ajv, { ValidateFunction } from 'ajv';
import request from 'supertest';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Live responses checked against the schemas /docs-json publishes for them, with the validator a generated
 * client would use: fields the gateway sends as null must be declared so (OpenAPI 3.0 `nullable`).
 */
const BASE = `{ agents: { list: [{ id: "main" }, { id: "other" }] } }`;

describe('OpenAPI document vs live responses (nullable fields)', () => {
  let gw: TestGateway;
  let responseSchema: (path: string) => ValidateFunction;
  beforeAll(async () => {
    gw = await startTestGateway(BASE);
    const doc = (await request(gw.url).get('/docs-json').expect(200)).body;
    // `example` and friends are OpenAPI annotations, not JSON Schema keywords: not strict.
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    responseSchema = (path) => {
      const schema = doc.paths[path].get.responses['200'].content['application/json'].schema;
      return ajv.compile({ $ref: `openapi.json${schema.$ref}` });
    };
  });
  afterAll(() => gw.stop());

  const expectValid = (validate: ValidateFunction, body: unknown) => {
    validate(body);
    expect(validate.errors ?? []).toEqual([]);
  };

  it('GET /admin/policy/check: layer null (allowed) and a layer name (refused) both match', async () => {
    const validate = responseSchema('/admin/policy/check');
    const allowed = (await request(gw.url).get('/admin/policy/check').query({ from: 'main', to: 'main' }).expect(200)).body;
    expect(allowed.layer).toBeNull();
    expectValid(validate, allowed);
    const refused = (await request(gw.url).get('/admin/policy/check').query({ from: 'main', to: 'other' }).expect(200)).body;
    expect(refused.layer).toEqual(expect.any(String));
    expectValid(validate, refused);
    // The schema still constrains: a layer the gateway never sends is refused.
    expect(validate({ ...allowed, layer: 'firewall' })).toBe(false);
  });

  it('GET /admin/config/status: lastError null, and the object after a rejected change, both match', async () => {
    const validate = responseSchema('/admin/config/status');
    const clean = (await request(gw.url).get('/admin/config/status').expect(200)).body;
    expect(clean.lastError).toBeNull();
    expectValid(validate, clean);

    await gw.writeConfig(BASE.replace('id: "main"', 'id: "main", modle: "x"'));
    const rejected = await waitFor(
      'a rejected reload',
      async () => {
        const s = (await request(gw.url).get('/admin/config/status')).body;
        return s.lastError ? s : undefined;
      },
      3000,
    );
    expectValid(validate, rejected);
    expect(validate({ ...rejected, lastError: { at: rejected.lastError.at } })).toBe(false);
  });
});
