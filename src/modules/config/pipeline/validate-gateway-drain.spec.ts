import { ConfigIssue } from './config-issue';
import { validateConfig } from './validate-config';

/** `path: message` lines, the way the CLI prints them; easier to read in a failing expectation. */
const lines = (issues: ConfigIssue[]) => issues.map((i) => `${i.path}: ${i.message}`);
const errorsOf = (doc: unknown) => lines(validateConfig(doc).errors);

describe('validateConfig: gateway.drainMs', () => {
  it('refuses a drain time that is negative, over ten minutes or not an integer, naming gateway.drainMs', () => {
    for (const bad of [-1, 600_001, 1.5, '5s']) {
      const errors = errorsOf({ gateway: { drainMs: bad } });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^gateway\.drainMs: /);
    }
    expect(errorsOf({ gateway: { drainMs: 600_000 } })).toEqual([]);
  });
});
