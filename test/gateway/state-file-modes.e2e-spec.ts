import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * What the gateway writes into its state directory holds secrets (the last-good copy) or conversations
 * (session indexes, transcripts, the A2A task store, the memory index with its -wal/-shm files, the audit
 * log): all of it is created for the gateway's user only — files 0600, directories 0700 — even under the
 * common 022 umask. Agent workspaces are the operator's to edit and keep the usual mode.
 * See docs/configuration.md#8-secrets.
 */

const ADMIN = 'modes-admin-token-3e9b1c';
const DESK = 'modes-desk-token-8a2f4d';
const HERMES = 'modes-hermes-token-6c0e7a';

const CONFIG = `{
  gateway: { admin: { tokens: [{ name: "root", token: "${ADMIN}", role: "admin" }] } },
  agents: { list: [{ id: "main", default: true }] },
  memory: { embeddings: { provider: "none" } },
  channels: {
    http: { enabled: true, accounts: { desk: { token: "${DESK}" } } },
    a2a: { enabled: true, peers: { hermes: { token: "${HERMES}" } } },
  },
}`;

/** Every entry under `dir` (workspaces left out) with its permission bits, as `[relative path, mode]`. */
async function modesUnder(dir: string, rel = ''): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const entry of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const child = path.join(rel, entry.name);
    if (!rel && entry.name.startsWith('workspace-')) continue;
    const mode = ((await fs.stat(path.join(dir, child))).mode & 0o777).toString(8);
    out.push([entry.isDirectory() ? `${child}/` : child, mode]);
    if (entry.isDirectory()) out.push(...(await modesUnder(dir, child)));
  }
  return out;
}

describe('state files are private to the gateway user (e2e)', () => {
  let gw: TestGateway;
  let umask: number;

  beforeAll(async () => {
    umask = process.umask(0o022);
    gw = await startTestGateway(CONFIG);
    await fs.chmod(gw.configPath, 0o600);
  });

  afterAll(async () => {
    await gw?.stop();
    process.umask(umask);
  });

  it('creates the last-good copy, sessions, transcripts, SQLite stores and the audit log 0600 in 0700 directories', async () => {
    if (process.platform === 'win32') return;
    const message = await request(gw.url)
      .post('/channels/http/messages')
      .set('Authorization', `Bearer ${DESK}`)
      .send({ peer: { kind: 'direct', id: 'alice' }, text: 'my account number is 12345' });
    expect(message.status).toBe(200);
    const task = await request(gw.url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${HERMES}`)
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      });
    expect(task.body.result).toBeDefined();
    await request(gw.url).get('/admin/agents/main/memory/search?q=account').set('Authorization', `Bearer ${ADMIN}`).expect(200);
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).set('Authorization', `Bearer ${ADMIN}`).expect(200);
    // The audit entry of that write is appended once its response is done.
    await waitFor('the audit log', () => fs.stat(path.join(gw.stateDir, 'audit.jsonl')).then(Boolean, () => false));

    const modes = await modesUnder(gw.stateDir);
    const names = modes.map(([name]) => name);
    // The files this test is about exist (while the stores are open, with their WAL files).
    for (const expected of [
      'openclaw.last-good.json',
      'audit.jsonl',
      'a2a/tasks.sqlite',
      'a2a/tasks.sqlite-wal',
      'sessions.sqlite',
      'sessions.sqlite-wal',
      'agents/main/memory/index.sqlite',
      'agents/main/memory/index.sqlite-wal',
    ]) {
      expect(names).toContain(expected);
    }
    expect(modes.filter(([name, mode]) => mode !== (name.endsWith('/') ? '700' : '600'))).toEqual([]);
    expect(((await fs.stat(gw.stateDir)).mode & 0o777).toString(8)).toBe('700');
  });
});
