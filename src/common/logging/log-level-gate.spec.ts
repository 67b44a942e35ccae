import { logsAt, setLogThreshold } from './log-level-gate';

describe('log level gate', () => {
  afterEach(() => setLogThreshold('info'));

  it('writes a level at or above the threshold and nothing at silent', () => {
    setLogThreshold('info');
    expect([logsAt('debug'), logsAt('info'), logsAt('warn')]).toEqual([false, true, true]);
    setLogThreshold('trace');
    expect(logsAt('trace')).toBe(true);
    setLogThreshold('silent');
    expect([logsAt('info'), logsAt('fatal')]).toEqual([false, false]);
  });
});
