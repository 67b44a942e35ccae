import type { ChannelInboundMessage } from '../../../plugin-sdk';
import { accessOf, decideAccess } from './channel-access';

const inGroup = (extra: Partial<ChannelInboundMessage> = {}): ChannelInboundMessage => ({
  accountId: 'default',
  peer: { kind: 'channel', id: 'c1' },
  guildId: 'g1',
  sender: { id: 'u1' },
  messageId: 'm1',
  text: 'hi',
  mentionsBot: false,
  ...extra,
});
const never = () => Promise.resolve(false);

describe('decideAccess for a place the plugin lists itself (listedGroup)', () => {
  it('admits it under groupPolicy "allowlist" with no groups, with the mention gating the plugin passed', async () => {
    const access = accessOf({}, 'default');
    await expect(decideAccess(access, inGroup(), never)).resolves.toMatchObject({
      kind: 'ignored',
      reason: expect.stringContaining('no group is allowed'),
    });
    await expect(decideAccess(access, inGroup({ listedGroup: { requireMention: false } }), never)).resolves.toEqual({ kind: 'route' });
    await expect(decideAccess(access, inGroup({ listedGroup: { requireMention: true } }), never)).resolves.toMatchObject({
      kind: 'ignored',
      reason: 'not mentioned (requireMention)',
    });
  });

  it('is still shut out by groupPolicy "disabled", a groups entry for the place, and groupAllowFrom', async () => {
    const listed = inGroup({ listedGroup: { requireMention: false } });
    await expect(decideAccess(accessOf({ groupPolicy: 'disabled' }, 'default'), listed, never)).resolves.toMatchObject({ kind: 'ignored' });
    await expect(decideAccess(accessOf({ groups: { c1: { enabled: false } } }, 'default'), listed, never)).resolves.toMatchObject({
      kind: 'ignored',
    });
    await expect(decideAccess(accessOf({ groupAllowFrom: ['someone-else'] }, 'default'), listed, never)).resolves.toMatchObject({
      kind: 'ignored',
      reason: 'sender is not on groupAllowFrom',
    });
  });
});
