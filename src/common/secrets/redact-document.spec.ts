import { redactSecretFields, REDACTED } from './redact-document';

describe('redactSecretFields', () => {
  it('replaces literal secrets everywhere and keeps ${VAR} references and other values', () => {
    const doc = {
      gateway: { port: 1, admin: { tokens: [{ name: 'ops', token: 'literal-admin-secret', role: 'admin' }] } },
      channels: { a2a: { peers: { hermes: { token: '${A2A_HERMES_TOKEN}', outboundToken: 'out-secret', url: 'https://h/a2a' } } } },
      models: { providers: { openai: { apiKey: 'sk-123', headers: { 'X-Org': 'org-secret' } } } },
      memory: { embeddings: { apiKey: 'emb-secret', model: 'm' } },
    };
    const out = redactSecretFields(doc) as typeof doc;
    const text = JSON.stringify(out);
    for (const secret of ['literal-admin-secret', 'out-secret', 'sk-123', 'org-secret', 'emb-secret']) {
      expect(text).not.toContain(secret);
    }
    expect(out.channels.a2a.peers.hermes.token).toBe('${A2A_HERMES_TOKEN}');
    expect(out.channels.a2a.peers.hermes.outboundToken).toBe(REDACTED);
    expect(out.gateway.admin.tokens[0]).toEqual({ name: 'ops', token: REDACTED, role: 'admin' });
    expect(out.channels.a2a.peers.hermes.url).toBe('https://h/a2a');
    expect(out.memory.embeddings.model).toBe('m');
    expect(doc.models.providers.openai.apiKey).toBe('sk-123');
  });
});
