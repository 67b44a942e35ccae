import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { candidateText } from './candidate-text';

const FILE = '{\n  // kept\n  agents: { list: [{ id: "main" }] },\n}\n';
const none = new Map<string, string>();

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
    expect(candidateText({ document: '{ a: 1 }' }, FILE, none)).toBe('{ a: 1 }');
    const patched = candidateText({ mergePatch: { tools: { agentToAgent: { enabled: true } } } }, FILE, none);
    expect(patched).toContain('// kept');
    expect(patched).toContain('agentToAgent');
  });

  it('refuses a patch into a section an $include provides, naming the file (409)', () => {
    const err = refusal(() => candidateText({ mergePatch: { agents: { list: [] } } }, FILE, new Map([['agents', '/etc/agents.json5']])));
    expect(err.code).toBe(ErrorCode.Conflict);
    expect(err.detail).toContain('/etc/agents.json5');
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
      const err = refusal(() => candidateText(candidate, FILE, none));
      expect({ candidate, code: err.code }).toEqual({ candidate, code: ErrorCode.BadRequest });
      expect(err.detail).toMatch(message);
    }
  });
});
