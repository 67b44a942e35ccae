import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliBuild, REPO_ROOT, transpileCli } from '../fixtures/cli-runner';
import { API_CLIENT } from '../support/admin-client';

/**
 * Grep test (secrets are never returned by any endpoint or written to logs). A real `clawgate
 * gateway` process at debug log level, a config full of known secret values (admin tokens, A2A peer tokens,
 * an http account token, a provider apiKey and header from the environment, an embeddings key, a built-in
 * provider's env key), then a scenario across many endpoints — including ones that echo caller input and
 * an upstream that reflects credentials. Afterwards no secret value may appear in any response (bodies and
 * headers), in stdout/stderr (the logs), or in the audit file.
 * See docs/admin-security.md#10-secrets-in-responses-and-logs.
 */

const SECRETS = {
  ADMIN_TOKEN: 'grep-admin-token-1f0e9d8c7b6a',
  HERMES_TOKEN: 'grep-hermes-inbound-5e4d3c2b',
  DESK_TOKEN: 'grep-desk-account-9a8b7c6d',
  LEAKY_KEY: 'sk-grep-leaky-provider-0a1b2c3d',
  HEADER_SECRET: 'grep-header-secret-4e5f6a7b',
  EMB_KEY: 'grep-embeddings-key-8c9d0e1f',
  OPENAI_API_KEY: 'sk-grep-openai-env-2b3c4d5e',
};
const VIEWER_LITERAL = 'grep-viewer-literal-6a1f3e2d';
const OUTBOUND_LITERAL = 'grep-hermes-outbound-7c2d9e4f';
const ALL_SECRETS = [...Object.values(SECRETS), VIEWER_LITERAL, OUTBOUND_LITERAL];

describe('no secret in responses, logs or the audit file (e2e, real process, debug logs)', () => {
  let build: CliBuild;
  let tmp: string;
  let child: ChildProcess;
  let url = '';
  let logs = '';
  let upstream: http.Server;
  const responses: string[] = [];

  /** Every call goes through here so its status line, headers and body are kept for the final grep. */
  async function call(
    method: string,
    route: string,
    opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${url}${route}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
    });
    const text = await res.text();
    // The label leaves out the query: it is what we sent, not what the gateway answered.
    responses.push(
      `${method} ${route.split('?')[0]} -> ${res.status}\n${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${text}`,
    );
    return { status: res.status, text };
  }

  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-grep-'));
    // An upstream model API that puts the credentials and the prompt it received into its error message.
    upstream = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const messages = (JSON.parse(body) as { messages: Array<{ content: unknown }> }).messages;
        const prompt = JSON.stringify(messages[messages.length - 1]?.content);
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            error: {
              message: `denied: authorization=${req.headers.authorization} x-api-secret=${String(req.headers['x-api-secret'])} prompt=${prompt}`,
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    const config = path.join(tmp, 'openclaw.json');
    await fs.writeFile(
      config,
      `{
      gateway: { admin: { tokens: [
        { name: "root", token: "\${ADMIN_TOKEN}", role: "admin" },
        { name: "wall", token: "${VIEWER_LITERAL}", role: "viewer" },
      ] } },
      models: { providers: { leaky: { api: "openai-chat", baseUrl: "${upstreamUrl}", apiKey: "\${LEAKY_KEY}",
                                      headers: { "X-Api-Secret": "\${HEADER_SECRET}" } } } },
      memory: { embeddings: { provider: "none", apiKey: "\${EMB_KEY}" } },
      agents: { list: [{ id: "main", default: true }, { id: "leaky", model: "leaky/model-x" }, { id: "gpt", model: "openai/gpt-x" }] },
      bindings: [{ agentId: "leaky", match: { channel: "http", accountId: "desk", peer: { kind: "direct", id: "leak" } } }],
      channels: {
        a2a: { enabled: true, peers: { hermes: { token: "\${HERMES_TOKEN}", url: "http://127.0.0.1:9/a2a/v1", outboundToken: "${OUTBOUND_LITERAL}" } } },
        http: { enabled: true, accounts: { desk: { token: "\${DESK_TOKEN}" } } },
      },
    }`,
    );
    build = await transpileCli();
    child = spawn(process.execPath, [build.cliJs, 'gateway', '--config', config, '--state-dir', path.join(tmp, 'state'), '--port', '0'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: tmp, CLAWGATE_LOG_LEVEL: 'debug', ...SECRETS },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (logs += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (logs += d.toString()));
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`gateway did not start within 45 s:\n${logs}`)), 45_000);
      const poll = setInterval(() => {
        const m = /clawgate listening on (http:\/\/\S+)/.exec(logs);
        if (m) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve(m[1]);
        }
      }, 20);
      child.once('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${logs}`)));
    });
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await new Promise((resolve) => upstream?.close(resolve));
    await build?.remove();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('runs the scenario and never shows a secret', async () => {
    const admin = SECRETS.ADMIN_TOKEN;
    expect((await call('GET', '/healthz')).status).toBe(200);
    await call('GET', '/readyz');
    await call('GET', '/metrics');
    const cfg = await call('GET', '/admin/config', { token: admin });
    expect(cfg.status).toBe(200);
    expect(cfg.text).toContain('${ADMIN_TOKEN}');
    expect(cfg.text).toContain('[redacted]'); // the literal viewer token and outboundToken
    for (const route of ['/admin/config/status', '/admin/agents', '/admin/bindings', '/admin/sessions', '/docs-json']) {
      expect((await call('GET', route, { token: VIEWER_LITERAL })).status).toBe(200);
    }
    // Validation quotes offending literal values, here a configured secret typed in: the safety net masks it.
    const invalid = await call('POST', '/admin/config/validate', { token: admin, body: { gateway: { publicUrl: admin } } });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain('[redacted]');
    // A value that came from ${VAR} is never quoted: the message names the variable.
    const fromEnv = await call('POST', '/admin/config/validate', { token: admin, body: { gateway: { publicUrl: '${ADMIN_TOKEN}' } } });
    expect(fromEnv.status).toBe(422);
    expect(fromEnv.text).toContain('the value of ${ADMIN_TOKEN}');
    await call('POST', '/admin/config/validate', { token: admin, body: '{"broken":', headers: { 'Content-Type': 'application/json' } });
    await call('POST', '/admin/routing/resolve', { token: VIEWER_LITERAL, body: { channel: 'http', accountId: 'desk' } });
    await call('GET', '/admin/policy/check?from=main&to=leaky', { token: VIEWER_LITERAL });
    // The echo model repeats what a caller typed, secrets included: the response is masked.
    const echo = await call('POST', '/channels/http/messages', {
      token: SECRETS.DESK_TOKEN,
      body: {
        peer: { kind: 'direct', id: 'customer-1' },
        text: `my keys: ${SECRETS.HERMES_TOKEN} ${OUTBOUND_LITERAL} ${SECRETS.OPENAI_API_KEY}`,
      },
    });
    expect(echo.status).toBe(200);
    expect(echo.text).toContain('[redacted]');
    // The leaky upstream reflects the provider's key and header (scrubbed by the provider itself) and the
    // prompt — here carrying another secret — into the run error, which is logged and returned.
    const leak = await call('POST', `/channels/http/messages?via=${SECRETS.EMB_KEY}`, {
      token: SECRETS.DESK_TOKEN,
      body: { peer: { kind: 'direct', id: 'leak' }, text: `hi ${SECRETS.HERMES_TOKEN}` },
    });
    expect(leak.text).toContain('failed');
    expect(leak.text).toContain('[redacted]');
    await call('POST', '/channels/http/messages', {
      token: `${SECRETS.DESK_TOKEN}x`,
      body: { peer: { kind: 'direct', id: 'x' }, text: 'hi' },
    });
    await call('POST', '/channels/http/messages', { token: admin, body: { peer: { kind: 'direct', id: 'x' }, text: 'hi' } });
    const sessions = JSON.parse((await call('GET', '/admin/sessions', { token: admin })).text) as {
      sessions: Array<{ sessionKey: string }>;
    };
    expect(sessions.sessions.length).toBeGreaterThanOrEqual(2);
    for (const s of sessions.sessions) await call('GET', `/admin/sessions/${encodeURIComponent(s.sessionKey)}/history`, { token: admin });
    await call('POST', `/admin/sessions/${encodeURIComponent('agent:main:main')}/send`, {
      token: admin,
      body: { agentId: 'leaky', message: SECRETS.LEAKY_KEY, timeoutSeconds: 5 },
    });
    await call('POST', '/admin/config/reload', { token: VIEWER_LITERAL, headers: { ...API_CLIENT } });
    await call('GET', `/admin/config?token=${admin}`);
    await call('GET', '/admin/config', { token: SECRETS.HERMES_TOKEN });
    await call('GET', '/admin/nope', { token: admin });
    const audit = await call('GET', '/admin/audit?limit=500', { token: admin });
    expect(audit.status).toBe(200);

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    const auditFile = await fs.readFile(path.join(tmp, 'state', 'audit.jsonl'), 'utf8');

    // The captures are real: debug logs were written, the audit recorded the denials and writes.
    expect(logs).toMatch(/"level":20/);
    expect(logs).toContain('config loaded');
    expect(logs).toMatch(/failed: model provider leaky returned HTTP 500.*\[redacted\]/);
    const audited = auditFile
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { status: number; path: string });
    expect(audited).toContainEqual(expect.objectContaining({ path: '/admin/config', status: 401 }));
    expect(audited).toContainEqual(expect.objectContaining({ path: '/admin/config/reload', status: 403 }));
    expect(audited).toContainEqual(expect.objectContaining({ path: '/admin/sessions/agent%3Amain%3Amain/send', status: 200 }));
    // A validate changes nothing: not a row, whatever its answer (docs/admin-security.md#9-audit-log).
    expect(audited).not.toContainEqual(expect.objectContaining({ path: '/admin/config/validate', status: 422 }));
    expect(responses.length).toBeGreaterThanOrEqual(25);
    const leaks: string[] = [];
    for (const secret of ALL_SECRETS) {
      responses.forEach((r, i) => r.includes(secret) && leaks.push(`response #${i} (${r.split('\n')[0]}) contains ${secret}`));
      if (logs.includes(secret)) leaks.push(`logs contain ${secret}`);
      if (auditFile.includes(secret)) leaks.push(`audit.jsonl contains ${secret}`);
    }
    expect(leaks).toEqual([]);
  }, 90_000);
});
