import { LITERAL_SECRET_MESSAGE, literalSecretsInPatch, newLiteralSecrets } from './literal-secrets';

describe('literal secrets', () => {
  it('names every literal at a secret path of a patch, accepts references and scheme-prefixed references', () => {
    const patch = {
      channels: { a2a: { peers: { a: { token: 'plain-1' }, b: { token: '${B_TOKEN}', url: 'https://b' } } } },
      models: { providers: { p: { apiKey: '$${ESCAPED}', headers: { Authorization: 'Bearer ${P_KEY}', 'X-Org': 'acme' } } } },
      gateway: { admin: { tokens: [{ name: 'x', token: 12345 }] } },
    };
    expect(literalSecretsInPatch(patch)).toEqual([
      { path: 'channels.a2a.peers.a.token', message: LITERAL_SECRET_MESSAGE },
      { path: 'models.providers.p.apiKey', message: LITERAL_SECRET_MESSAGE },
      { path: 'models.providers.p.headers.X-Org', message: LITERAL_SECRET_MESSAGE },
      { path: 'gateway.admin.tokens[0].token', message: 'a secret must be a ${VAR} reference (a string), not number' },
    ]);
    expect(JSON.stringify(literalSecretsInPatch(patch))).not.toContain('plain-1');
  });

  it('a rollback introduces only literals the current config does not already hold there', () => {
    const current = { channels: { a2a: { peers: { a: { token: 'same-1' }, b: { token: 'old-2' } } } } };
    const candidate = { channels: { a2a: { peers: { a: { token: 'same-1' }, b: { token: 'new-3' }, c: { token: '${C}' } } } } };
    expect(newLiteralSecrets(candidate, current).map((i) => i.path)).toEqual(['channels.a2a.peers.b.token']);
  });
});
