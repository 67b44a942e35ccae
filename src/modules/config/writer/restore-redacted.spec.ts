import { restoreRedactedSecrets } from './restore-redacted';

const SERVED = `{
  // who may administer
  gateway: { admin: { tokens: [
    { name: "ops", token: "ops-secret-token-0123456789", role: "admin" },
    { name: "ci", token: "\${CI_TOKEN}", role: "operator" },
  ] } },
}`;

describe('restoreRedactedSecrets', () => {
  it('puts back the served secret where the text says [redacted], keeping comments and the rest of the edit', () => {
    const edited = SERVED.replace('ops-secret-token-0123456789', '[redacted]').replace('role: "admin"', 'role: "viewer"');
    const { text, issues } = restoreRedactedSecrets(edited, SERVED);
    expect(issues).toEqual([]);
    expect(text).toBe(SERVED.replace('role: "admin"', 'role: "viewer"'));
    expect(text).toContain('// who may administer');
  });

  it('names the path of a [redacted] the served file holds no secret for, and of one whose entry changed', () => {
    const noSecret = SERVED.replace('gateway: {', 'gateway: { metrics: { token: "[redacted]" },');
    expect(restoreRedactedSecrets(noSecret, SERVED).issues).toEqual([
      { path: 'gateway.metrics.token', message: expect.stringContaining('holds none') },
    ]);
    // The two entries swapped: tokens[0] is now "ci", so the secret at tokens[0] would go to the wrong name.
    const swapped = `{ gateway: { admin: { tokens: [
      { name: "ci", token: "[redacted]", role: "operator" },
      { name: "ops", token: "[redacted]", role: "admin" },
    ] } } }`;
    const { text, issues } = restoreRedactedSecrets(swapped, SERVED);
    expect(issues.map((i) => i.path)).toEqual(['gateway.admin.tokens[0].token', 'gateway.admin.tokens[1].token']);
    expect(issues[0].message).toContain('name/id changed');
    expect(text).toBe(swapped);
  });

  it('leaves [redacted] outside secret paths, and text that is not JSON5, as they are', () => {
    const plain = '{ agents: { list: [{ id: "[redacted]" }] } }';
    expect(restoreRedactedSecrets(plain, SERVED)).toEqual({ text: plain, issues: [] });
    expect(restoreRedactedSecrets('{ not json5', SERVED)).toEqual({ text: '{ not json5', issues: [] });
  });
});
