import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../config/pipeline/load-config';
import { configuredSecrets } from './configured-secrets';

describe('configuredSecrets', () => {
  it('collects every secret of the normalized config and the providers’ environment keys, with their paths', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-secrets-'));
    try {
      const configPath = path.join(dir, 'openclaw.json');
      await fs.writeFile(
        configPath,
        `{
        gateway: { admin: { tokens: [{ name: "a", token: "\${ADMIN_T}", role: "admin" }, { name: "ghost", token: "\${UNSET_T}", role: "viewer" }] } },
        models: { providers: { p: { api: "openai-chat", baseUrl: "http://127.0.0.1:1/v1", apiKey: "prov-key-123", headers: { "X-Org": "org-secret-1" } } } },
        memory: { embeddings: { provider: "none", apiKey: "emb-key-123" } },
        channels: {
          a2a: { peers: { hermes: { token: "peer-in-123", outboundToken: "peer-out-123" } } },
          http: { accounts: { desk: { token: "desk-123456" } } },
        },
      }`,
      );
      const result = await loadConfig({ configPath, stateDir: path.join(dir, 'state'), env: { ADMIN_T: 'admin-from-env' } });
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      const secrets = configuredSecrets(result.snapshot, { OPENAI_API_KEY: 'sk-env-openai', ANTHROPIC_API_KEY: '', UNRELATED: 'x' });
      expect(Object.fromEntries(secrets.map((s) => [s.path, s.value]))).toEqual({
        'gateway.admin.tokens[0].token': 'admin-from-env',
        'models.providers.p.apiKey': 'prov-key-123',
        'models.providers.p.headers.X-Org': 'org-secret-1',
        'memory.embeddings.apiKey': 'emb-key-123',
        'channels.a2a.peers.hermes.token': 'peer-in-123',
        'channels.a2a.peers.hermes.outboundToken': 'peer-out-123',
        'channels.http.accounts.desk.token': 'desk-123456',
        'environment variable OPENAI_API_KEY': 'sk-env-openai',
      });
      // Cached per snapshot: the same array for the same snapshot.
      expect(configuredSecrets(result.snapshot, {})).toBe(secrets);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("adds the variables a configured channel's manifest reads a secret from (TELEGRAM_BOT_TOKEN)", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-secrets-'));
    try {
      const configPath = path.join(dir, 'openclaw.json');
      await fs.writeFile(configPath, `{ channels: { telegram: { apiRoot: "http://127.0.0.1:1" } } }`);
      const result = await loadConfig({ configPath, stateDir: path.join(dir, 'state'), env: {} });
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      const secrets = configuredSecrets(result.snapshot, { TELEGRAM_BOT_TOKEN: '123:tg-from-env' });
      expect(secrets).toContainEqual({ path: 'environment variable TELEGRAM_BOT_TOKEN', value: '123:tg-from-env' });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
