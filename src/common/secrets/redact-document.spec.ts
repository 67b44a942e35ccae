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

describe('redactSecretFields on the credentials of OpenClaw settings clawgate keeps without using', () => {
  it('redacts environment and header maps, private keys and service accounts, and leaves their switches', () => {
    const doc = {
      env: { OPENROUTER_API_KEY: 'sk-or-literal', vars: { GROQ_API_KEY: 'gsk-literal' }, shellEnv: { enabled: true, timeoutMs: 15000 } },
      skills: { entries: { 'image-lab': { env: { GEMINI_API_KEY: 'gem-literal' }, enabled: true } } },
      mcp: { servers: { docs: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer mcp-literal' } } } },
      channels: {
        nostr: { privateKey: 'nsec-literal' },
        feishu: { encryptKey: 'enc-literal', appId: 'cli_a1' },
        googlechat: { serviceAccount: { type: 'service_account', private_key: 'pem-literal' } },
      },
    };
    const out = redactSecretFields(doc) as typeof doc;
    const text = JSON.stringify(out);
    for (const secret of ['sk-or-literal', 'gsk-literal', 'gem-literal', 'mcp-literal', 'nsec-literal', 'enc-literal', 'pem-literal']) {
      expect(text).not.toContain(secret);
    }
    expect(out.env.shellEnv).toEqual({ enabled: true, timeoutMs: 15000 });
    expect(out.skills.entries['image-lab'].enabled).toBe(true);
    expect(out.mcp.servers.docs.url).toBe('https://example.com/mcp');
    expect(out.channels.feishu.appId).toBe('cli_a1');
  });
});
