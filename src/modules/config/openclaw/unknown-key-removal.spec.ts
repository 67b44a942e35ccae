import { fromDottedPath, toDottedPath } from '../pipeline/config-issue';
import { unknownKeyRemoval } from './unknown-key-removal';

describe('fromDottedPath', () => {
  it.each([
    [['agents', 'list', 5, 'failoverFor']],
    [['models', 'providers', 'my.host', 'baseUrl']],
    [['a', 'b-c', 0, 1, 'd']],
    [['with "quote"', 2]],
  ])('reads back what toDottedPath rendered: %j', (segments) => {
    expect(fromDottedPath(toDottedPath(segments))).toEqual(segments);
  });

  it.each(['', '.a', 'a..b', 'a.', 'a[x]', 'a b', 'a[1]b', '[0'])('is undefined for %j, which toDottedPath never renders', (text) => {
    expect(fromDottedPath(text)).toBeUndefined();
  });
});

describe('unknownKeyRemoval', () => {
  const doc = { agents: { list: [{ id: 'main', failoverFor: ['x'], modle: 'a' }] }, session: { signalRouting: {} } };

  it('removes the unknown keys of the root file and leaves likely typos and other files\' keys, saying why', () => {
    const removal = unknownKeyRemoval(
      [
        { path: 'agents.list[0].failoverFor', message: 'unknown key' },
        { path: 'agents.list[0].modle', message: 'unknown key (did you mean "model"?)' },
        { path: 'session.signalRouting', message: 'unknown key', file: '/cfg/openclaw.json', line: 3 },
        { path: 'gateway.extra', message: 'unknown key', file: '/cfg/agents.json5', line: 1 },
        { path: 'gateway.port', message: 'expected number' },
      ],
      '/cfg/openclaw.json',
      doc,
    );
    expect(removal.edits).toEqual([
      { op: 'remove', path: ['agents', 'list', 0, 'failoverFor'] },
      { op: 'remove', path: ['session', 'signalRouting'] },
    ]);
    expect(removal.removed).toEqual(['agents.list[0].failoverFor', 'session.signalRouting']);
    expect(removal.left).toEqual([
      'agents.list[0].modle: unknown key; did you mean "model"? rename it by hand',
      'gateway.extra: unknown key in an included file; remove it there',
    ]);
  });

  it('never removes a path the root file does not hold (an included section)', () => {
    const removal = unknownKeyRemoval([{ path: 'tools.mystery', message: 'unknown key' }], '/cfg/openclaw.json', doc);
    expect(removal.edits).toEqual([]);
    expect(removal.left).toEqual(['tools.mystery: unknown key in an included file; remove it there']);
  });
});
