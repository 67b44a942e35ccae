import JSON5 from 'json5';
import { applyJson5Edits } from './json5-edit';
import { mergePatchEdits } from './merge-patch-edits';

const patched = (text: string, patch: Record<string, unknown>) => applyJson5Edits(text, mergePatchEdits(JSON5.parse(text), patch));

describe('mergePatchEdits (RFC 7396 as comment-keeping edits)', () => {
  it('merges objects, replaces arrays and scalars, removes keys for null and keeps comments', () => {
    const text = '{\n  // keep me\n  a: { b: 1, c: [1, 2] },\n  d: "x",\n}\n';
    const out = patched(text, { a: { b: 2, c: [3] }, d: null, e: { f: 1 } });
    expect(out).toContain('// keep me');
    expect(JSON5.parse(out)).toEqual({ a: { b: 2, c: [3] }, e: { f: 1 } });
  });

  it('writes an object patch with its nulls dropped where there is nothing to merge into', () => {
    expect(JSON5.parse(patched('{ a: 1 }', { a: { b: null, c: { d: null, e: 2 } } }))).toEqual({ a: { c: { e: 2 } } });
  });

  it('removing a key that is not there is no edit', () => {
    expect(mergePatchEdits({ a: 1 }, { b: null })).toEqual([]);
  });

  it('follows the RFC 7396 examples', () => {
    const target = { title: 'Goodbye!', author: { givenName: 'John', familyName: 'Doe' }, tags: ['example', 'sample'], content: 'x' };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    expect(JSON5.parse(patched(JSON.stringify(target), patch))).toEqual({
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'x',
      phoneNumber: '+01-123-456-7890',
    });
  });
});
