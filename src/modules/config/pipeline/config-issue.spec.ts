import { ConfigLoadError, formatConfigIssue, toDottedPath } from './config-issue';

describe('toDottedPath', () => {
  it('renders keys with dots and indexes in brackets', () => {
    expect(toDottedPath(['agents', 'list', 2, 'modle'])).toBe('agents.list[2].modle');
    expect(toDottedPath(['bindings', 0, 'match', 'peer', 'kind'])).toBe('bindings[0].match.peer.kind');
    expect(toDottedPath([])).toBe('');
  });

  it('quotes keys that are not identifiers, so the path stays unambiguous', () => {
    expect(toDottedPath(['channels', 'a2a', 'peers', 'peer.one', 'token'])).toBe('channels.a2a.peers["peer.one"].token');
    expect(toDottedPath(['agents', 'entries', 'Code Bot'])).toBe('agents.entries["Code Bot"]');
    // Dashes are common in ids and read fine unquoted.
    expect(toDottedPath(['agents', 'entries', 'code-bot'])).toBe('agents.entries.code-bot');
    expect(toDottedPath(['$include'])).toBe('$include');
  });
});

describe('formatConfigIssue', () => {
  it('prints file:line:col, then the path, then the message', () => {
    expect(formatConfigIssue({ path: '', file: '/c/openclaw.json', line: 3, column: 7, message: "invalid character ','" })).toBe(
      "/c/openclaw.json:3:7: invalid character ','",
    );
    expect(formatConfigIssue({ path: 'agents.$include', file: '/c/openclaw.json', message: 'cycle' })).toBe(
      '/c/openclaw.json: agents.$include: cycle',
    );
    expect(formatConfigIssue({ path: 'gateway.port', message: 'must be an integer' })).toBe('gateway.port: must be an integer');
    expect(formatConfigIssue({ path: '', file: '/c/x.json5', line: 1, message: 'm' })).toBe('/c/x.json5:1:1: m');
  });

  it('ConfigLoadError carries the issues and a readable message', () => {
    const err = new ConfigLoadError([
      { path: 'a', message: 'one' },
      { path: 'b', message: 'two' },
    ]);
    expect(err.issues).toHaveLength(2);
    expect(err.message).toBe('a: one\nb: two');
    expect(err.name).toBe('ConfigLoadError');
  });
});
