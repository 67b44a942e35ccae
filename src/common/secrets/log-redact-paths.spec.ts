import { redactNestedSecrets } from './log-redact-paths';

describe('redactNestedSecrets', () => {
  it('blanks token, apiKey and outboundToken one and two levels down, and nothing else', () => {
    const line = {
      msg: 'x',
      token: 'top-level-is-not-a-wildcard-path',
      peer: { token: 'secret-1', url: 'http://a' },
      providers: { openai: { apiKey: 'secret-2', api: 'openai-chat' }, deep: { deeper: { apiKey: 'three-levels' } } },
      a2a: { peers: { hermes: { outboundToken: 'secret-3' } } },
    };
    const copy = structuredClone(line);
    expect(redactNestedSecrets(line)).toEqual({
      msg: 'x',
      token: 'top-level-is-not-a-wildcard-path',
      peer: { token: '[redacted]', url: 'http://a' },
      providers: { openai: { apiKey: '[redacted]', api: 'openai-chat' }, deep: { deeper: { apiKey: 'three-levels' } } },
      a2a: { peers: { hermes: { outboundToken: 'secret-3' } } },
    });
    // The logged object itself is left as it was.
    expect(line).toEqual(copy);
  });

  it('returns a flat line as it is', () => {
    const line = { event: 'run.ended', runId: 'r1', durationMs: 3 };
    expect(redactNestedSecrets(line)).toBe(line);
  });
});
