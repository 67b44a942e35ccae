import { authenticateAccount } from './account-auth';

describe('http channel account auth', () => {
  const accounts = {
    desk: { id: 'desk', token: 'tok-desk-0001', usable: true },
    noisy: { id: 'noisy', token: 'tok-noisy-002', webhookUrl: 'http://127.0.0.1:9/hook', usable: true },
    unset: { id: 'unset', usable: false },
  };

  it('returns the account whose token matches', () => {
    expect(authenticateAccount(accounts, 'tok-desk-0001')?.id).toBe('desk');
    expect(authenticateAccount(accounts, 'tok-noisy-002')?.id).toBe('noisy');
  });

  it('rejects a wrong token of the same length, a prefix, an empty token and unusable accounts', () => {
    expect(authenticateAccount(accounts, 'tok-desk-0002')).toBeUndefined();
    expect(authenticateAccount(accounts, 'tok-desk')).toBeUndefined();
    expect(authenticateAccount(accounts, '')).toBeUndefined();
    expect(authenticateAccount(accounts, undefined)).toBeUndefined();
    // An unusable account with a leftover token is still never accepted.
    expect(authenticateAccount({ x: { id: 'x', token: 'lit', usable: false } }, 'lit')).toBeUndefined();
  });
});
