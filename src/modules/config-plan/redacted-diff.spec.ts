import { redactedDiff } from './redacted-diff';

describe('redactedDiff', () => {
  it('is empty for the same text', () => {
    expect(redactedDiff('openclaw.json', '{ a: 1 }', '{ a: 1 }')).toBe('');
  });

  it('shows no secret of either side, marks a changed one, and keeps ${VAR} references', () => {
    const before = '{\n  peers: { a: { token: "old-secret-1" }, b: { token: "${B_TOKEN}" }, c: { token: "same-secret-3" } },\n  x: 1,\n}\n';
    const after = '{\n  peers: { a: { token: "new-secret-2" }, b: { token: "${B_TOKEN}" }, c: { token: "same-secret-3" } },\n  x: 2,\n}\n';
    const diff = redactedDiff('openclaw.json', before, after);
    expect(diff).not.toMatch(/secret-/);
    expect(diff).toContain(
      [
        '-  peers: { a: { token: "[redacted]" }, b: { token: "${B_TOKEN}" }, c: { token: "[redacted]" } },',
        '-  x: 1,',
        '+  peers: { a: { token: "[redacted, changed]" }, b: { token: "${B_TOKEN}" }, c: { token: "[redacted]" } },',
        '+  x: 2,',
      ].join('\n'),
    );
  });
});
