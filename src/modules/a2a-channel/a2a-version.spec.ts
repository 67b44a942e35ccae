import { ErrorCode } from '../../common/errors/error-code';
import { requestedA2aVersion, versionProblem } from './a2a-version';

describe('A2A-Version negotiation', () => {
  it('reads the header first, then the query parameter; neither is the empty version (a 0.3 client)', () => {
    expect(requestedA2aVersion({ headers: { 'a2a-version': ' 1.0 ' }, url: '/a2a/v1?A2A-Version=9.9' })).toBe('1.0');
    expect(requestedA2aVersion({ headers: {}, url: '/a2a/v1?x=1&a2a-version=0.3' })).toBe('0.3');
    expect(requestedA2aVersion({ headers: {}, url: '/a2a/v1?A2A-Version=%31.0' })).toBe('1.0');
    expect(requestedA2aVersion({ headers: {}, url: '/a2a/v1?A2A-Version=%E0%A4%A' })).toBe('%E0%A4%A');
    expect(requestedA2aVersion({ headers: {}, url: '/a2a/v1' })).toBe('');
  });

  it('serves 0.3 and 1.0 by Major.Minor and refuses anything else with -32009 naming what is served', () => {
    for (const ok of ['', '1.0', '1.0.3', '0.3', '0.3.0', '01.0']) expect(versionProblem(ok)).toBeUndefined();
    for (const bad of ['99.0', '1.1', '2', 'latest', '1.0-beta', 'x'.repeat(300)]) {
      const problem = versionProblem(bad);
      expect(problem?.code).toBe(ErrorCode.VersionNotSupported);
      expect(problem?.errors?.[0]).toEqual({ requestedVersion: bad.slice(0, 64), supportedVersions: '0.3,1.0' });
    }
  });
});
