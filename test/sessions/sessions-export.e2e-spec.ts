import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { SESSION_STORE, SessionStore } from '../../src/modules/sessions/session-store.port';
import { CliBuild, runCli, transpileCli } from '../fixtures/cli-runner';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

const LITERAL_SECRET = 'sk-export-test-secret-0123456789';
const ENV_SECRET = 'sk-export-from-the-environment-42';
const CONFIG = `{
  agents: { list: [{ id: "main", default: true }, { id: "ops" }] },
  models: { providers: {
    acme: { api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", apiKey: "${LITERAL_SECRET}" },
    other: { api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", apiKey: "\${EXPORT_API_KEY}" },
  } },
}`;
const enc = encodeURIComponent;

/**
 * Sessions at the admin API and the CLI: pages that hold steady while sessions are being created, and a
 * transcript exported as JSONL — over HTTP and with `clawgate sessions export` against the running gateway's
 * state dir.
 */
describe('session pages and export (e2e)', () => {
  let gw: TestGateway;
  let store: SessionStore;
  let build: CliBuild;
  beforeAll(async () => {
    gw = await startTestGateway(CONFIG, { env: { EXPORT_API_KEY: ENV_SECRET } });
    store = gw.app.get<SessionStore>(SESSION_STORE);
    build = await transpileCli();
  }, 60_000);
  afterAll(async () => {
    await gw.stop();
    await build?.remove();
  });

  it('pages through every session exactly once while new ones keep arriving', async () => {
    for (let i = 0; i < 120; i++) await store.getOrCreate(`agent:${i % 3 ? 'main' : 'ops'}:page-${i}`);
    const seen: string[] = [];
    let cursor: string | undefined;
    let created = 0;
    do {
      const res = await request(gw.url)
        .get(`/admin/sessions?limit=25${cursor ? `&cursor=${enc(cursor)}` : ''}`)
        .expect(200);
      expect(res.body.count).toBe(res.body.sessions.length);
      seen.push(...res.body.sessions.map((s: { sessionKey: string }) => s.sessionKey));
      // New sessions (and activity) between pages, as on a live gateway.
      await Promise.all(Array.from({ length: 7 }, () => store.getOrCreate(`agent:main:late-${created++}`)));
      cursor = res.body.nextCursor as string | undefined;
    } while (cursor);
    const expected = Array.from({ length: 120 }, (_, i) => `agent:${i % 3 ? 'main' : 'ops'}:page-${i}`).reverse();
    expect(seen).toEqual(expected);

    const ops = await request(gw.url).get('/admin/sessions?agentId=ops&limit=5').expect(200);
    expect(ops.body.sessions.every((s: { agentId: string }) => s.agentId === 'ops')).toBe(true);
    const next = await request(gw.url)
      .get(`/admin/sessions?agentId=ops&limit=5&cursor=${enc(ops.body.nextCursor as string)}`)
      .expect(200);
    expect(next.body.sessions[0].sessionKey).toBe('agent:ops:page-102');
  });

  it('refuses a cursor it did not issue and other bad page queries with 400 naming the field', async () => {
    for (const [query, mention] of [
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${'x'.repeat(101)}`, 'cursor'],
      ['cursor=', 'cursor'],
      ['limit=501', 'limit'],
    ]) {
      const res = await request(gw.url).get(`/admin/sessions?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(JSON.stringify(res.body)).toContain(mention);
    }
  });

  it('exports a transcript as JSONL with every field, secrets masked, and 404/400 for unknown or malformed keys', async () => {
    const key = 'agent:main:export-me';
    await store.append(key, { role: 'user', text: 'first', meta: { channel: 'http' } });
    await store.append(key, { role: 'assistant', text: 'calling', toolCalls: [{ name: 'exec' }] });
    await store.append(key, { role: 'tool', text: `the key is ${LITERAL_SECRET}` });
    await store.append(key, { role: 'assistant', text: 'done' });
    const entry = await store.get(key);

    const res = await request(gw.url)
      .get(`/admin/sessions/${enc(key)}/export`)
      .buffer(true)
      .parse(textParser)
      .expect(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${entry!.sessionId}.jsonl"`);
    const text = res.body as string;
    expect(text).not.toContain(LITERAL_SECRET);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { role: string; text: string; toolCalls?: unknown[] });
    expect(lines.map((l) => [l.role, l.text.slice(0, 11)])).toEqual([
      ['user', 'first'],
      ['assistant', 'calling'],
      ['tool', 'the key is '],
      ['assistant', 'done'],
    ]);
    expect(lines[1].toolCalls).toEqual([{ name: 'exec' }]);

    const missing = await request(gw.url).get(`/admin/sessions/${enc('agent:main:nope')}/export`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toContain('agent:main:nope');
    const malformed = await request(gw.url).get(`/admin/sessions/${enc('not-a-key')}/export`);
    expect(malformed.status).toBe(400);
  });

  it('`clawgate sessions export` writes the same file from the running gateway’s state dir', async () => {
    const key = 'agent:ops:cli-export';
    for (let i = 0; i < 1500; i++) await store.append(key, { role: i % 2 ? 'assistant' : 'user', text: `turn ${i}` });
    const env = { HOME: gw.dir, CLAWGATE_LOG_LEVEL: 'silent' };
    const stdout = await runCli(build.cliJs, ['sessions', 'export', 'Agent:Ops:CLI-Export', '--state-dir', gw.stateDir], env);
    expect(stdout.code).toBe(0);
    const http = await request(gw.url)
      .get(`/admin/sessions/${enc(key)}/export`)
      .buffer(true)
      .parse(textParser)
      .expect(200);
    expect(stdout.stdout).toBe(http.body);
    expect(stdout.stdout.trimEnd().split('\n')).toHaveLength(1500);

    const out = path.join(gw.dir, 'export.jsonl');
    const toFile = await runCli(build.cliJs, ['sessions', 'export', key, '--state-dir', gw.stateDir, '--out', out], env);
    expect(toFile.code).toBe(0);
    expect(await fs.readFile(out, 'utf8')).toBe(stdout.stdout);
    expect(((await fs.stat(out)).mode & 0o777).toString(8)).toBe('600');

    const again = await runCli(build.cliJs, ['sessions', 'export', key, '--state-dir', gw.stateDir, '--out', out], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('EEXIST');
    const unknown = await runCli(build.cliJs, ['sessions', 'export', 'agent:ops:nope', '--state-dir', gw.stateDir], env);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain('session agent:ops:nope not found');
    const malformed = await runCli(build.cliJs, ['sessions', 'export', 'nope', '--state-dir', gw.stateDir], env);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('nope');
    const noDb = await runCli(build.cliJs, ['sessions', 'export', key, '--state-dir', path.join(gw.dir, 'empty')], env);
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toContain('no session database');
  }, 60_000);

  it('`clawgate sessions export` masks the configured secrets as the HTTP export does: the config’s, else the last-good copy’s', async () => {
    const key = 'agent:main:cli-secrets';
    await store.append(key, { role: 'user', text: 'what are the keys?' });
    await store.append(key, { role: 'tool', text: `written in the file: ${LITERAL_SECRET}; from the environment: ${ENV_SECRET}` });
    const http = await request(gw.url)
      .get(`/admin/sessions/${enc(key)}/export`)
      .buffer(true)
      .parse(textParser)
      .expect(200);
    const served = http.body as string;
    expect(served).toContain('written in the file: [redacted]; from the environment: [redacted]');
    const env = { HOME: gw.dir, CLAWGATE_LOG_LEVEL: 'silent', EXPORT_API_KEY: ENV_SECRET };

    // --config: the file the gateway serves; --state-dir alone: no openclaw.json there, the gateway's last-good copy.
    for (const located of [
      ['--config', gw.configPath, '--state-dir', gw.stateDir],
      ['--state-dir', gw.stateDir],
    ]) {
      const run = await runCli(build.cliJs, ['sessions', 'export', key, ...located], env);
      expect(run.code).toBe(0);
      expect(run.stdout).not.toContain(LITERAL_SECRET);
      expect(run.stdout).not.toContain(ENV_SECRET);
      expect(run.stdout).toBe(served);
    }

    // Nothing says which secrets to mask (no config, no last-good copy): nothing is written, and the error says why.
    const lastGood = path.join(gw.stateDir, 'openclaw.last-good.json');
    const aside = path.join(gw.dir, 'last-good.aside.json');
    await fs.rename(lastGood, aside);
    try {
      const blind = await runCli(build.cliJs, ['sessions', 'export', key, '--state-dir', gw.stateDir], env);
      expect(blind).toMatchObject({ code: 1, stdout: '' });
      expect(blind.stderr).toContain('cannot tell which secrets to mask');
      expect(blind.stderr).toContain(path.join(gw.stateDir, 'openclaw.json'));
      expect(blind.stderr).toContain('--config');
    } finally {
      await fs.rename(aside, lastGood);
    }
  }, 60_000);
});

/** supertest parses only known types into `body`; this keeps the JSONL text as it was sent. */
function textParser(res: request.Response, done: (err: Error | null, body: unknown) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  let body = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (body += chunk));
  stream.on('end', () => done(null, body));
}
