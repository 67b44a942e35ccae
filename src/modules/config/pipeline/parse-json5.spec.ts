import { ConfigLoadError } from './config-issue';
import { parseJson5 } from './parse-json5';

function parseError(text: string): ConfigLoadError {
  try {
    parseJson5(text, '/etc/clawgate/clawgate.json5');
  } catch (err) {
    if (err instanceof ConfigLoadError) return err;
    throw err;
  }
  throw new Error('expected a ConfigLoadError');
}

describe('parseJson5', () => {
  it('parses a JSON5 document with comments, unquoted keys and trailing commas', () => {
    const text = `// gateway config
{
  gateway: { port: 8080, publicUrl: 'https://claw.example', },
  agents: [1, 2,],
}`;
    expect(parseJson5(text, 'x.json5')).toEqual({
      gateway: { port: 8080, publicUrl: 'https://claw.example' },
      agents: [1, 2],
    });
  });

  it('strips a UTF-8 BOM', () => {
    expect(parseJson5('\uFEFF{ a: 1 }', 'x.json5')).toEqual({ a: 1 });
  });

  it('reports a syntax error on line 3 with its column and a readable message', () => {
    const err = parseError('{\n  a: 1,\n  b: ]\n}');
    expect(err.issues).toEqual([
      {
        path: '',
        file: '/etc/clawgate/clawgate.json5',
        line: 3,
        column: 6,
        message: "invalid character ']'",
      },
    ]);
    expect(err.message).toBe("/etc/clawgate/clawgate.json5:3:6: invalid character ']'");
  });

  it('reports a truncated document without the JSON5 prefix or position suffix', () => {
    const err = parseError('{ a: 1');
    expect(err.issues[0].message).toBe('invalid end of input');
    expect(err.issues[0].line).toBe(1);
  });

  it.each(['', '   \n\t', '\uFEFF'])('reports an empty file (%j) as "file is empty"', (text) => {
    const err = parseError(text);
    expect(err.issues).toEqual([{ path: '', file: '/etc/clawgate/clawgate.json5', message: 'file is empty' }]);
  });
});
