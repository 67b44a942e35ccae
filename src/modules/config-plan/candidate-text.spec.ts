import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { candidateFiles } from './candidate-text';

const FILE = '{\n  // kept\n  agents: { list: [{ id: "main" }] },\n}\n';
const ROOT = '/etc/clawgate/openclaw.json';
const files = [{ path: ROOT, text: FILE }];

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('candidateText', () => {
  it('returns a document as sent and applies a merge patch with the writer’s edits', () => {
    expect(candidateFiles({ document: '{ a: 1 }' }, files)).toEqual(new Map([[ROOT, '{ a: 1 }']]));
    const patched = candidateFiles({ mergePatch: { tools: { agentToAgent: { enabled: true } } } }, files).get(ROOT);
    expect(patched).toContain('// kept');
    expect(patched).toContain('agentToAgent');
  });

  it('patches a section an $include provides in the included file', () => {
    const split = [
      { path: ROOT, text: '{ agents: { $include: "agents.json5" } }' },
      { path: '/etc/clawgate/agents.json5', text: '{ list: [{ id: "main" }] } // agents' },
    ];
    expect(candidateFiles({ mergePatch: { agents: { list: [{ id: 'main', name: 'Main' }] } } }, split)).toEqual(
      new Map([['/etc/clawgate/agents.json5', '{ list: [{ id: "main", name: "Main" }] } // agents']]),
    );
  });

  it('answers 400 for neither, both, non-JSON5, non-object and wrongly typed candidates', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /send document/],
      [{ document: '{}', mergePatch: {} }, /not both/],
      [{ document: '{ a: ' }, /not valid JSON5/],
      [{ document: '"text"' }, /must be a JSON5 object/],
      [{ document: {} }, /not object/],
      [{ mergePatch: [] }, /not an array/],
    ];
    for (const [candidate, message] of cases) {
      const err = refusal(() => candidateFiles(candidate, files));
      expect({ candidate, code: err.code }).toEqual({ candidate, code: ErrorCode.BadRequest });
      expect(err.detail).toMatch(message);
    }
  });
});
