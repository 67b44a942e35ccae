import { redactSecretHeaders, registerSecretHeaderSource } from './secret-headers';

describe('redactSecretHeaders', () => {
  let names: string[] = [];
  let unregister: () => void;
  beforeEach(() => {
    names = ['X-Amzn-Oidc-Data'];
    unregister = registerSecretHeaderSource(() => names);
  });
  afterEach(() => unregister());

  it('blanks the named headers whatever their case, in a copy', () => {
    const headers = { host: 'gw', 'x-amzn-oidc-data': 'eyJ.assertion.sig', accept: '*/*' };
    const out = redactSecretHeaders(headers);
    expect(out).toEqual({ host: 'gw', 'x-amzn-oidc-data': '[redacted]', accept: '*/*' });
    expect(headers['x-amzn-oidc-data']).toBe('eyJ.assertion.sig');
  });

  it('returns the same object when no named header is present, and follows the source', () => {
    const headers = { host: 'gw', 'x-corp-assertion': 'a' };
    expect(redactSecretHeaders(headers)).toBe(headers);
    names = ['X-Corp-Assertion'];
    expect(redactSecretHeaders(headers)).toEqual({ host: 'gw', 'x-corp-assertion': '[redacted]' });
  });

  it('ignores a source that cannot answer yet, and none once unregistered', () => {
    const failing = registerSecretHeaderSource(() => {
      throw new Error('config not loaded yet');
    });
    try {
      expect(redactSecretHeaders({ 'x-amzn-oidc-data': 'a' })).toEqual({ 'x-amzn-oidc-data': '[redacted]' });
    } finally {
      failing();
    }
    unregister();
    expect(redactSecretHeaders({ 'x-amzn-oidc-data': 'a' })).toEqual({ 'x-amzn-oidc-data': 'a' });
  });
});
