import { failsOver, ModelChainCursor } from './model-failover';
import { ModelProviderError } from './model-provider.port';

describe('model failover', () => {
  const live = new AbortController().signal;

  it.each([
    [429, true],
    [500, true],
    [503, true],
    [401, true],
    [404, true],
    [400, false],
    [413, false],
    [422, false],
  ])('HTTP %i goes on to the next model: %s', (status, expected) => {
    expect(failsOver(new ModelProviderError('model provider p returned HTTP …', status), live)).toBe(expected);
  });

  it('goes on after a provider failure without a status (timeout, refused connection, no key), never after an abort or a bug', () => {
    expect(failsOver(new ModelProviderError('model provider p did not answer within 1000 ms'), live)).toBe(true);
    const aborted = new AbortController();
    aborted.abort(new Error('stopped'));
    expect(failsOver(new ModelProviderError('model provider p is unreachable'), aborted.signal)).toBe(false);
    expect(failsOver(new TypeError('x is undefined'), live)).toBe(false);
  });

  it('walks the chain in order, records each failure, and names every model when all failed', () => {
    const cursor = new ModelChainCursor(['a/x', 'b/y']);
    expect(cursor.current).toBe('a/x');
    expect(cursor.advance(new ModelProviderError('first'))).toBe(true);
    expect(cursor.current).toBe('b/y');
    expect(cursor.advance(new ModelProviderError('second'))).toBe(false);
    expect(cursor.failed).toEqual([
      { model: 'a/x', error: 'first' },
      { model: 'b/y', error: 'second' },
    ]);
    expect(cursor.exhausted(new Error('second')).message).toBe('every model failed: a/x: first; b/y: second');
  });

  it("with one model the run fails with that model's own error", () => {
    const cursor = new ModelChainCursor(['a/x']);
    const err = new ModelProviderError('model provider a returned HTTP 500: boom', 500);
    expect(cursor.advance(err)).toBe(false);
    expect(cursor.exhausted(err)).toBe(err);
  });
});
