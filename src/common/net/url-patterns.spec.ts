import { urlPatternProblem, urlAllowedByPatterns } from './url-patterns';

describe('URL allowlist patterns', () => {
  const patterns = ['https://hooks.example.com/a2a/*', 'https://*.partner.io/*', 'http://127.0.0.1:4567/push/*'];

  it.each([
    ['https://hooks.example.com/a2a/task-1', true],
    ['https://hooks.example.com/a2a/deep/path?x=1', true],
    ['https://HOOKS.example.com/a2a/x', true],
    ['https://hooks.example.com/other', false],
    ['http://hooks.example.com/a2a/x', false],
    ['https://hooks.example.com:8443/a2a/x', false],
    ['https://eu.partner.io/cb', true],
    ['https://a.b.partner.io/cb', true],
    ['https://partner.io.evil.com/cb', false],
    ['https://evil.com/x?.partner.io/cb', false],
    ['http://127.0.0.1:4567/push/1', true],
    ['http://127.0.0.1:4568/push/1', false],
    ['http://169.254.169.254/latest/meta-data', false],
    ['https://user:pw@hooks.example.com/a2a/x', false],
    ['https://hooks.example.com/a2a/x#frag', false],
    ['ftp://hooks.example.com/a2a/x', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => {
    expect(urlAllowedByPatterns(url, patterns)).toBe(allowed);
  });

  it('a wildcard host never matches an IP literal or localhost: those must be named literally', () => {
    expect(urlAllowedByPatterns('https://10.0.0.5/x', ['https://*.*/*', 'https://1*/*'])).toBe(false);
    expect(urlAllowedByPatterns('https://localhost/x', ['https://local*/*'])).toBe(false);
    expect(urlAllowedByPatterns('https://[::1]/x', ['https://[::1]/*'])).toBe(true);
    expect(urlAllowedByPatterns('https://localhost/x', ['https://localhost/*'])).toBe(true);
  });

  it('no patterns allow nothing', () => {
    expect(urlAllowedByPatterns('https://hooks.example.com/a2a/x', [])).toBe(false);
  });

  it.each([
    ['', /non-empty/],
    ['hooks.example.com/*', /http:\/\/ or https:\/\//],
    ['https://u:p@hooks.example.com/*', /credentials/],
    ['https://*/*', /must name a domain/],
    ['https://hooks.example.com:x/*', /invalid port/],
    ['https://hooks.example.com/a#b', /fragment/],
  ])('refuses the pattern %j saying why', (pattern, why) => {
    expect(urlPatternProblem(pattern)).toMatch(why);
  });

  it('accepts well-formed patterns', () => {
    for (const p of [...patterns, 'https://hooks.example.com:*/x']) expect(urlPatternProblem(p)).toBeUndefined();
  });
});
