import { readRetiredOpenClawSpellings } from './retired-openclaw-spellings';

const messages = (issues: Array<{ path: string; message: string }>) => issues.map((i) => `${i.path}: ${i.message}`);

describe('readRetiredOpenClawSpellings', () => {
  it('reads the retired reload modes as hybrid, with a warning naming the value', () => {
    for (const mode of ['hot', 'restart']) {
      const r = readRetiredOpenClawSpellings({ gateway: { reload: { mode, debounceMs: 100 } } });
      expect(r.document).toEqual({ gateway: { reload: { mode: 'hybrid', debounceMs: 100 } } });
      expect(messages(r.warnings)).toEqual([expect.stringMatching(new RegExp(`^gateway.reload.mode: "${mode}" was retired by OpenClaw and is read as "hybrid"`))]);
    }
    const current = { gateway: { reload: { mode: 'off' } } };
    expect(readRetiredOpenClawSpellings(current)).toEqual({ document: current, warnings: [], errors: [] });
  });

  it('reads match.provider as match.channel when the binding has no channel, and leaves both for the key data to refuse', () => {
    const r = readRetiredOpenClawSpellings({
      bindings: [
        { agentId: 'a', match: { provider: 'whatsapp', accountId: 'biz' } },
        { agentId: 'b', match: { provider: 'telegram', channel: 'telegram' } },
      ],
    });
    expect(r.document).toEqual({
      bindings: [
        { agentId: 'a', match: { channel: 'whatsapp', accountId: 'biz' } },
        { agentId: 'b', match: { provider: 'telegram', channel: 'telegram' } },
      ],
    });
    expect(messages(r.warnings)).toEqual([
      'bindings[0].match.provider: the old name of bindings[].match.channel, read as channel; `clawgate doctor --fix` renames it',
    ]);
  });

  it('leaves "*" out of trustedProxies with a warning, and refuses it where the proxy names the user', () => {
    const plain = readRetiredOpenClawSpellings({ gateway: { auth: { mode: 'token' }, trustedProxies: ['*', '10.0.0.1'] } });
    expect(plain.document).toEqual({ gateway: { auth: { mode: 'token' }, trustedProxies: ['10.0.0.1'] } });
    expect(plain.errors).toEqual([]);
    expect(messages(plain.warnings)).toEqual([expect.stringMatching(/^gateway.trustedProxies: "\*" would let any client forge X-Forwarded-For/)]);

    for (const gateway of [{ auth: { mode: 'trusted-proxy' } }, { admin: { sso: {} } }]) {
      const r = readRetiredOpenClawSpellings({ gateway: { ...gateway, trustedProxies: ['*'] } });
      expect(messages(r.errors)).toEqual([expect.stringMatching(/^gateway.trustedProxies: "\*" would believe the user header of trusted-proxy auth from any address/)]);
    }
  });

  it('does not change its input', () => {
    const doc = { gateway: { reload: { mode: 'restart' }, trustedProxies: ['*'] }, bindings: [{ agentId: 'a', match: { provider: 'x' } }] };
    const copy = JSON.parse(JSON.stringify(doc)) as unknown;
    readRetiredOpenClawSpellings(doc);
    expect(doc).toEqual(copy);
  });
});
