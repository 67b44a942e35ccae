import { ErrorCode } from '../../../common/errors/error-code';
import { readRequestVersion, REST_A2A_VERSIONS, requestedA2aVersion, wireVersionOf } from './versions';

describe('A2A-Version negotiation', () => {
  it('reads the header first, then the query parameter; neither is the empty version', () => {
    expect(requestedA2aVersion({ headers: { 'a2a-version': ' 1.0 ' }, url: '/a2a/v1?A2A-Version=9.9' })).toBe('1.0');
    expect(requestedA2aVersion({ headers: {}, url: '/a2a/v1?x=1&a2a-version=0.3' })).toBe('0.3');
    expect(requestedA2aVersion({ headers: {}, url: '/a2a/v1?A2A-Version=%31.0' })).toBe('1.0');
    expect(requestedA2aVersion({ headers: {}, url: '/a2a/v1?A2A-Version=%E0%A4%A' })).toBe('%E0%A4%A');
    expect(requestedA2aVersion({ headers: {}, url: '/a2a/v1' })).toBe('');
  });

  it('declares 0.3 and 1.0 by Major.Minor, nothing for an empty version', () => {
    expect(readRequestVersion('')).toEqual({});
    for (const v of ['1.0', '1.0.3', '01.0']) expect(readRequestVersion(v)).toEqual({ declared: '1.0' });
    for (const v of ['0.3', '0.3.0', '0.03']) expect(readRequestVersion(v)).toEqual({ declared: '0.3' });
  });

  it('refuses anything else with -32009 naming what is served', () => {
    for (const bad of ['99.0', '1.1', '0.2', '2', 'latest', '1.0-beta', 'x'.repeat(300)]) {
      const { declared, problem } = readRequestVersion(bad);
      expect(declared).toBeUndefined();
      expect(problem?.code).toBe(ErrorCode.VersionNotSupported);
      expect(problem?.errors?.[0]).toEqual({ requestedVersion: bad.slice(0, 64), supportedVersions: '0.3,1.0' });
    }
  });

  it('reads a version against the served set of the binding: HTTP+JSON serves 1.0 only', () => {
    expect(readRequestVersion('1.0.1', REST_A2A_VERSIONS)).toEqual({ declared: '1.0' });
    expect(readRequestVersion('', REST_A2A_VERSIONS)).toEqual({});
    const { declared, problem } = readRequestVersion('0.3', REST_A2A_VERSIONS);
    expect(declared).toBeUndefined();
    expect(problem?.errors?.[0]).toEqual({ requestedVersion: '0.3', supportedVersions: '1.0' });
  });

  it('answers each call in the declared version, else in the version its method name belongs to', () => {
    for (const method of ['SendMessage', 'message/send', 'Nope']) {
      expect(wireVersionOf({ declared: '1.0' }, method)).toBe('1.0');
      expect(wireVersionOf({ declared: '0.3' }, method)).toBe('0.3');
    }
    for (const method of ['message/send', 'tasks/get', 'tasks/cancel', 'tasks/list', 'tasks/pushNotificationConfig/set']) {
      expect(wireVersionOf({}, method)).toBe('0.3');
    }
    for (const method of ['SendMessage', 'GetTask', 'CancelTask', 'ListTasks', 'Nope']) expect(wireVersionOf({}, method)).toBe('1.0');
  });

  it('answers a version that is not served in the 1.0 form, which can list the served ones', () => {
    expect(wireVersionOf(readRequestVersion('0.2'), 'message/send')).toBe('1.0');
  });
});
