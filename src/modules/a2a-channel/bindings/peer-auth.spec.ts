import { timingSafeEqual } from 'node:crypto';
import type { A2aPeerSettings } from '../../config/config.types';
import { authenticatePeer } from './peer-auth';

jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});

const peer = (name: string, token: string | undefined, usable = true): A2aPeerSettings => ({
  name,
  token,
  usable,
  protocolVersion: '1.0',
  pushUrls: [],
  trustBudget: false,
});

describe('A2A peer authentication', () => {
  const peers = {
    hermes: peer('hermes', 'hermes-token-0001'),
    iris: peer('iris', 'iris-token-00002'),
    ghost: peer('ghost', undefined, false),
    stale: peer('stale', 'stale-token-0003', false),
  };

  it('identifies the peer whose token matches', () => {
    expect(authenticatePeer(peers, 'hermes-token-0001')).toBe('hermes');
    expect(authenticatePeer(peers, 'iris-token-00002')).toBe('iris');
  });

  it('refuses a same-length wrong token, a prefix, an empty token and unusable peers', () => {
    expect(authenticatePeer(peers, 'hermes-token-0002')).toBeUndefined();
    expect(authenticatePeer(peers, 'hermes-token')).toBeUndefined();
    expect(authenticatePeer(peers, '')).toBeUndefined();
    expect(authenticatePeer(peers, undefined)).toBeUndefined();
    expect(authenticatePeer(peers, 'stale-token-0003')).toBeUndefined();
  });

  it('looks the token up by its digest: one timing-safe comparison for a match, none for an unknown token', () => {
    const compare = timingSafeEqual as jest.MockedFunction<typeof timingSafeEqual>;
    compare.mockClear();
    expect(authenticatePeer(peers, 'iris-token-00002')).toBe('iris');
    expect(compare).toHaveBeenCalledTimes(1);
    compare.mockClear();
    expect(authenticatePeer(peers, 'nobody')).toBeUndefined();
    expect(compare).not.toHaveBeenCalled();
  });
});
