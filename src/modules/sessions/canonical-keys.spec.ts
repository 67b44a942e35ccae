import fc from 'fast-check';
import { MAX_SESSION_KEY_LENGTH } from './canonical-keys';
import { canonicalSessionKey } from './session-input';
import { directSessionKey, parseSessionKey } from './session-key';

const segment = fc.stringMatching(/^[A-Za-z0-9+._-]{1,12}$/);
const peerId = fc.oneof(
  segment,
  fc.tuple(segment, segment).map(([a, b]) => `${a}:${b}`),
);
const conversation = fc.record({
  agentId: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
  dmScope: fc.constantFrom('per-peer', 'per-channel-peer', 'per-account-channel-peer'),
  mainKey: fc.constant('main'),
  channel: segment,
  accountId: segment,
  peerId,
});

/** A per-peer key built for `peerId`. */
const perPeerKey = (peerId: string) =>
  directSessionKey({ agentId: 'a', dmScope: 'per-peer', mainKey: 'main', channel: 'a2a', accountId: 'default', peerId });

describe('canonical keys of built session keys', () => {
  it('a conversation key the gateway builds is answered as parsing it would answer', () => {
    fc.assert(
      fc.property(conversation, (input) => {
        const key = directSessionKey(input);
        const parsed = parseSessionKey(key);
        expect(parsed).not.toBeNull();
        expect(canonicalSessionKey(key)).toEqual({ key: parsed!.key, agentId: parsed!.agentId });
      }),
    );
  });

  it('a built key over the length limit is still refused where it is used', () => {
    const key = perPeerKey('p'.repeat(MAX_SESSION_KEY_LENGTH));
    expect(() => canonicalSessionKey(key)).toThrow(`longer than ${MAX_SESSION_KEY_LENGTH} characters`);
  });

  it('a built key whose peer id ends in a thread marker is still refused (it does not parse)', () => {
    const key = perPeerKey('p:thread:');
    expect(parseSessionKey(key)).toBeNull();
    expect(() => canonicalSessionKey(key)).toThrow('empty thread id');
  });
});
