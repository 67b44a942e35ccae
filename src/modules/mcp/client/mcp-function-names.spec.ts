import { mcpFunctionName } from './mcp-function-names';

describe('mcpFunctionName', () => {
  it('is mcp__<server>__<tool> when that is a valid function name nobody has', () => {
    expect(mcpFunctionName('files', 'read_file', new Set())).toBe('mcp__files__read_file');
    expect(mcpFunctionName('everything', 'get-sum', new Set())).toBe('mcp__everything__get-sum');
  });

  it('replaces refused characters, fits 64 characters and adds a hash, so names never collide', () => {
    const dotted = mcpFunctionName('files', 'read.file', new Set());
    const underscored = mcpFunctionName('files', 'read_file', new Set());
    expect(dotted).toMatch(/^mcp__files__read_file_[0-9a-f]{8}$/);
    expect(dotted).not.toBe(underscored);
    const long = mcpFunctionName('files', 'x'.repeat(100), new Set());
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^[A-Za-z0-9_-]+$/);
    // The same pair always gets the same name.
    expect(mcpFunctionName('files', 'read.file', new Set())).toBe(dotted);
  });

  it('adds the hash when the plain name is taken', () => {
    expect(mcpFunctionName('a', 'b', new Set(['mcp__a__b']))).toMatch(/^mcp__a__b_[0-9a-f]{8}$/);
  });
});
