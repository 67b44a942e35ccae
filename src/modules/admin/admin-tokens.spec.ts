import { snapshotFrom } from '../../../test/support/config-snapshot';
import type { GatewaySettings } from '../config/config.types';
import { matchAdminToken } from './admin-tokens';

let TOKENS: GatewaySettings['admin']['tokens'];
beforeAll(async () => {
  const tokens = [
    { name: 'ci', token: 'ci-token-0123456789', role: 'operator' },
    { name: 'root', token: 'root-token-0123456789', role: 'admin' },
    // An entry whose ${VAR} is unset: the loader drops its token.
    { name: 'ghost', token: '${GHOST}', role: 'admin' },
  ];
  TOKENS = (await snapshotFrom({ gateway: { admin: { tokens } } })).config.gateway.admin.tokens;
});

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
