import { splitMarkdown } from './split-text';

describe('splitMarkdown', () => {
  it('leaves a text within the limit whole', () => {
    expect(splitMarkdown('short', 100)).toEqual(['short']);
  });

  it('cuts at the last paragraph boundary before the limit', () => {
    const a = 'a'.repeat(50);
    const b = 'b'.repeat(30);
    const c = 'c'.repeat(40);
    expect(splitMarkdown(`${a}\n\n${b}\n\n${c}`, 100)).toEqual([`${a}\n\n${b}`, c]);
  });

  it('falls back to a line end, a space, then a hard cut', () => {
    expect(splitMarkdown(`${'x'.repeat(70)}\n${'y'.repeat(60)}`, 100)).toEqual(['x'.repeat(70), 'y'.repeat(60)]);
    expect(splitMarkdown(`${'x'.repeat(70)} ${'y'.repeat(60)}`, 100)).toEqual(['x'.repeat(70), 'y'.repeat(60)]);
    const hard = splitMarkdown('z'.repeat(250), 100);
    expect(hard.join('')).toBe('z'.repeat(250));
    expect(hard.every((p) => p.length <= 100)).toBe(true);
  });

  it('closes a code block cut in two and opens it again, with its language, in the next piece', () => {
    const code = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const pieces = splitMarkdown(`Intro\n\n\`\`\`py\n${code}\n\`\`\``, 80);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(80);
      expect((piece.match(/```/g) ?? []).length % 2).toBe(0);
    }
    expect(pieces[1].startsWith('```py\n')).toBe(true);
    // Nothing of the code is lost or doubled.
    const lines = pieces
      .join('\n')
      .split('\n')
      .filter((l) => l.startsWith('line '));
    expect(lines).toEqual(code.split('\n'));
  });

  it('does not cut at a blank line inside a code block when a paragraph boundary is outside', () => {
    const text = `${'p'.repeat(50)}\n\n\`\`\`\nx\n\ny\n\`\`\`\n${'q'.repeat(40)}`;
    const [first] = splitMarkdown(text, 80);
    expect(first).toBe('p'.repeat(50));
  });
});
