import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { mergePatchFiles } from './merge-patch-files';

const ROOT = '/cfg/openclaw.json';
const file = (name: string, text: string) => ({ path: `/cfg/${name}`, text });

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('mergePatchFiles', () => {
  it('edits the root alone when nothing is included, keeping every other byte', () => {
    const text = '{\n  // a\n  tools: { agentToAgent: { enabled: false } }, // b\n  session: { dmScope: "main" },\n}\n';
    const out = mergePatchFiles([{ path: ROOT, text }], { tools: { agentToAgent: { enabled: true } }, session: { dmScope: null } });
    expect(out).toEqual(new Map([[ROOT, '{\n  // a\n  tools: { agentToAgent: { enabled: true } }, // b\n  session: {},\n}\n']]));
  });

  it('changes a list of the same length element by element, so comments inside stay', () => {
    const text = '{\n  list: [\n    { id: "a" }, // first\n    { id: "b" }, // second\n  ],\n}\n';
    const out = mergePatchFiles([{ path: ROOT, text }], { list: [{ id: 'a' }, { id: 'c' }] });
    expect(out.get(ROOT)).toBe(text.replace('{ id: "b" }', '{ id: "c" }'));
  });

  it('routes a node to the file that holds it: sibling first, then the later included file; removal everywhere', () => {
    const files = [
      { path: ROOT, text: '{ session: { $include: ["a.json5", "b.json5"], mainKey: "root" } }' },
      file('a.json5', '{ dmScope: "main", mainKey: "a" }'),
      file('b.json5', '{ dmScope: "per-peer" }'),
    ];
    expect(mergePatchFiles(files, { session: { dmScope: 'main', mainKey: 'x' } })).toEqual(
      new Map([
        [ROOT, '{ session: { $include: ["a.json5", "b.json5"], mainKey: "x" } }'],
        ['/cfg/b.json5', '{ dmScope: "main" }'],
      ]),
    );
    expect(mergePatchFiles(files, { session: { mainKey: null } })).toEqual(
      new Map([
        [ROOT, '{ session: { $include: ["a.json5", "b.json5"] } }'],
        ['/cfg/a.json5', '{ dmScope: "main" }'],
      ]),
    );
  });

  it('puts a new key into the included file of a section that is only an $include, else next to its keys', () => {
    const only = [{ path: ROOT, text: '{ agents: { $include: "agents.json5" } }' }, file('agents.json5', '{ list: [] }')];
    expect([...mergePatchFiles(only, { agents: { defaults: { model: 'echo/x' } } }).keys()]).toEqual(['/cfg/agents.json5']);
    const mixed = [{ path: ROOT, text: '{ a2a: { $include: "p.json5", enabled: true } }' }, file('p.json5', '{ peers: {} }')];
    expect([...mergePatchFiles(mixed, { a2a: { rateLimitPerMinute: 5 } }).keys()]).toEqual([ROOT]);
  });

  it('refuses a list put together from two files and an edit of $include itself (409)', () => {
    const files = [{ path: ROOT, text: '{ $include: "b.json5", bindings: [1] }' }, file('b.json5', '{ bindings: [2] }')];
    const list = refusal(() => mergePatchFiles(files, { bindings: [] }));
    expect(list.code).toBe(ErrorCode.Conflict);
    expect(list.detail).toContain('bindings is put together from several files (openclaw.json, b.json5)');
    expect(refusal(() => mergePatchFiles(files, { $include: 'c.json5' })).code).toBe(ErrorCode.Conflict);
    const nested = [{ path: ROOT, text: '{ list: [{ $include: "e.json5" }] }' }, file('e.json5', '{ id: "a" }')];
    expect(refusal(() => mergePatchFiles(nested, { list: [{ id: 'b' }] })).detail).toMatch(/list contains an \$include/);
    expect(refusal(() => mergePatchFiles([{ path: ROOT, text: '{ a: ' }], { a: 1 })).detail).toMatch(/not a valid JSON5 object/);
  });
});
