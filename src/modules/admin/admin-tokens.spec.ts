import { matchAdminToken } from './admin-tokens';

const TOKENS = [
  { name: 'ci', token: 'ci-token-0123456789', role: 'operator' as const },
  { name: 'root', token: 'root-token-0123456789', role: 'admin' as const },
  // An entry whose ${VAR} was unset: the loader dropped its token.
  { name: 'ghost', token: undefined as unknown as string, role: 'admin' as const },
];

describe('matchAdminToken', () => {
  it('finds the entry whose token equals the presented one', () => {
    expect(matchAdminToken(TOKENS, 'root-token-0123456789')).toEqual({ name: 'root', role: 'admin' });
    expect(matchAdminToken(TOKENS, 'ci-token-0123456789')).toEqual({ name: 'ci', role: 'operator' });
  });
  it('matches nothing for a near miss, a prefix, an empty value or an unusable entry', () => {
    expect(matchAdminToken(TOKENS, 'root-token-012345678X')).toBeUndefined();
    expect(matchAdminToken(TOKENS, 'root-token')).toBeUndefined();
    expect(matchAdminToken(TOKENS, '')).toBeUndefined();
    expect(matchAdminToken(TOKENS, undefined)).toBeUndefined();
    expect(matchAdminToken(TOKENS, 'undefined')).toBeUndefined();
  });
  it('reads the list it is given (a reloaded list without the token no longer matches)', () => {
    const rotated = TOKENS.filter((t) => t.name !== 'root');
    expect(matchAdminToken(TOKENS, 'root-token-0123456789')).toBeDefined();
    expect(matchAdminToken(rotated, 'root-token-0123456789')).toBeUndefined();
  });
});
