import { compileManifestSchema } from './plugin-ajv';

describe('compileManifestSchema', () => {
  it('compiles a schema once: the same text gives the same validator, another text another one', () => {
    const schema = { type: 'object', properties: { token: { type: 'string' } }, additionalProperties: false };
    const first = compileManifestSchema(schema);
    const again = compileManifestSchema(JSON.parse(JSON.stringify(schema)) as Record<string, unknown>);
    if (!('validate' in first) || !('validate' in again)) throw new Error('expected the schema to compile');
    expect(again.validate).toBe(first.validate);
    expect(first.validate({ token: 'x' })).toBe(true);
    expect(first.validate({ token: 1 })).toBe(false);
    const other = compileManifestSchema({ ...schema, additionalProperties: true });
    expect('validate' in other && other.validate).not.toBe(first.validate);
  });

  it('keeps two schemas with the same $id apart, and says why a schema does not compile', () => {
    const a = compileManifestSchema({ $id: 'urn:plugin:x', type: 'string' });
    const b = compileManifestSchema({ $id: 'urn:plugin:x', type: 'number' });
    if (!('validate' in a) || !('validate' in b)) throw new Error('expected both schemas to compile');
    expect([a.validate('s'), b.validate(1), b.validate('s')]).toEqual([true, true, false]);
    const broken = compileManifestSchema({ type: 'no-such-type' });
    expect('problem' in broken && broken.problem).toMatch(/type/);
  });
});
