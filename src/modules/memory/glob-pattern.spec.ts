import { globDepth, globMatches, isHiddenPath } from './glob-pattern';

describe('glob patterns of memory collections', () => {
  it.each([
    ['**/*.md', 'MEMORY.md', true],
    ['**/*.md', 'a/b/c.md', true],
    ['**/*.md', 'a/b/c.mdx', false],
    ['*.jsonl', 'abc.jsonl', true],
    ['*.jsonl', 'sub/abc.jsonl', false],
    ['MEMORY.md', 'MEMORY.md', true],
    ['MEMORY.md', 'MEMORYxmd', false],
    ['notes/*.md', 'notes/a.md', true],
    ['notes/*.md', 'notes/x/a.md', false],
    ['{**/*.md,*.jsonl}', 'x/y.md', true],
    ['{**/*.md,*.jsonl}', 's.jsonl', true],
    ['{**/*.md,*.jsonl}', 'x/s.jsonl', false],
    ['day-??.md', 'day-01.md', true],
    ['day-[0-9]*.md', 'day-7x.md', true],
    ['day-[!0-9]*.md', 'day-7x.md', false],
    ['docs/**', 'docs/a/b.txt', true],
    ['a+b(c).md', 'a+b(c).md', true],
  ])('%s vs %s → %s', (pattern, rel, expected) => {
    expect(globMatches(pattern, rel)).toBe(expected);
  });

  it('knows how deep a pattern reaches, for the watcher', () => {
    expect(globDepth('MEMORY.md')).toBe(0);
    expect(globDepth('*.jsonl')).toBe(0);
    expect(globDepth('notes/*.md')).toBe(1);
    expect(globDepth('{a/b/*.md,*.md}')).toBe(2);
    expect(globDepth('**/*.md')).toBeUndefined();
  });

  it('treats dot segments as hidden', () => {
    expect(isHiddenPath('.git/config')).toBe(true);
    expect(isHiddenPath('memory/.MEMORY.md.swp')).toBe(true);
    expect(isHiddenPath('memory/day.md')).toBe(false);
  });
});
