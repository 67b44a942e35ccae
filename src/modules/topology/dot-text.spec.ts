import { dotAttributes, dotString } from './dot-text';

describe('dotString', () => {
  it('escapes quotes, backslashes and ampersands, so no config text can end the string or pass as an entity', () => {
    expect(dotString('a "b" \\N &lt; <c>')).toBe('"a \\"b\\" \\\\N &amp;lt; <c>"');
  });

  it('turns control characters into spaces and joins lines with the DOT line break', () => {
    expect(dotString(['one\nline\u0007', 'two'])).toBe('"one line \\ntwo"');
  });

  it('cuts a long line by characters, not UTF-16 units', () => {
    const cut = dotString('🛟'.repeat(80), 10);
    expect([...JSON.parse(cut.replace(/\\/g, '\\\\'))]).toHaveLength(10);
    expect(cut.endsWith('…"')).toBe(true);
  });
});

describe('dotAttributes', () => {
  it('escapes text attributes and quotes the builder’s own values', () => {
    expect(dotAttributes({ label: 'x"y', color: '#fff', penwidth: 2, style: undefined })).toBe('label="x\\"y", color="#fff", penwidth="2"');
  });
});
