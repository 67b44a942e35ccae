import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { ADMIN, EVERY_SECTION, VIEWER, WRITE_ENV } from '../support/config-write-fixture';
import { API_CLIENT } from '../support/admin-client';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('PATCH /admin/config (e2e)', () => {
  let gw: TestGateway;
  const revision = async () => (await request(gw.url).get('/admin/config').set(bearer(ADMIN)).expect(200)).body.revision as string;
  const readConfig = () => fs.readFile(gw.configPath, 'utf8');
  const patch = (body: unknown, ifMatch?: string, token = ADMIN) => {
    const req = request(gw.url).patch('/admin/config').set(bearer(token)).set('Content-Type', 'application/merge-patch+json');
    if (ifMatch !== undefined) req.set('If-Match', ifMatch);
    return req.send(JSON.stringify(body));
  };

  beforeAll(async () => {
    gw = await startTestGateway(EVERY_SECTION, { env: WRITE_ENV });
  });
  afterAll(() => gw.stop());

  it('each top-level section: only the edited node changes, comments around it and every other byte stay', async () => {
    const cases: Array<{ section: string; patch: Record<string, unknown>; from: string; to: string }> = [
      { section: '$schema', patch: { $schema: './openclaw.schema.json' }, from: '"./none.schema.json"', to: '"./openclaw.schema.json"' },
      { section: 'gateway', patch: { gateway: { reload: { debounceMs: 60 } } }, from: 'debounceMs: 50 }', to: 'debounceMs: 60 }' },
      {
        section: 'gateway.admin',
        patch: {
          gateway: {
            admin: {
              tokens: [
                { name: 'root', token: '${ADMIN_TOKEN}', role: 'admin' },
                { name: 'ci', token: '${VIEWER_TOKEN}', role: 'operator' },
              ],
            },
          },
        },
        from: '{ name: "ci", token: "${VIEWER_TOKEN}", role: "viewer" }',
        to: '{ name: "ci", token: "${VIEWER_TOKEN}", role: "operator" }',
      },
      { section: 'agents', patch: { agents: { defaults: { model: 'echo/other' } } }, from: '"echo/default" }', to: '"echo/other" }' },
      {
        section: 'bindings',
        patch: { bindings: [{ agentId: 'main', match: { channel: 'http', accountId: 'web' } }] },
        from: 'bindings: [{ agentId: "support",',
        to: 'bindings: [{ agentId: "main",',
      },
      {
        section: 'tools',
        patch: { tools: { agentToAgent: { enabled: true } } },
        from: 'enabled: false }, // off',
        to: 'enabled: true }, // off',
      },
      { section: 'session', patch: { session: { dmScope: 'per-peer' } }, from: 'dmScope: "main" }', to: 'dmScope: "per-peer" }' },
      { section: 'memory', patch: { memory: { backend: 'qmd' } }, from: 'backend: "builtin"', to: 'backend: "qmd"' },
      {
        section: 'models',
        patch: { models: { providers: { echo: { streamDelayMs: 5 } } } },
        from: 'streamDelayMs: 0',
        to: 'streamDelayMs: 5',
      },
      {
        section: 'channels.a2a peers',
        patch: { channels: { a2a: { peers: { hermes: { token: '${HERMES_NEXT}' } } } } },
        from: 'token: "${HERMES_TOKEN}"',
        to: 'token: "${HERMES_NEXT}"',
      },
      {
        section: 'channels.http',
        patch: { channels: { http: { enabled: false } } },
        from: 'enabled: true,\n      accounts',
        to: 'enabled: false,\n      accounts',
      },
    ];
    let expected = await readConfig();
    for (const c of cases) {
      const before = await revision();
      const res = await patch(c.patch, before);
      expect({ section: c.section, status: res.status }).toEqual({ section: c.section, status: 200 });
      expect(expected).toContain(c.from);
      expected = expected.replace(c.from, c.to);
      expect({ section: c.section, text: await readConfig() }).toEqual({ section: c.section, text: expected });
      expect(res.headers.etag).toBe(`"${res.body.revision}"`);
      expect(res.body.revision).toBe(await revision());
      expect(Array.isArray(res.body.warnings) && Array.isArray(res.body.pendingRestart)).toBe(true);
      expect(Object.keys(res.body.impact).sort()).toEqual(['a2a', 'admin', 'agentToAgent', 'agents', 'approvals', 'budgets', 'mcp', 'memory', 'plugins', 'routing']);
    }
    expect(expected).toContain('// off until asked');
    expect(expected).toContain('/* agents: two of them */');
  });

  it('answers with the impact, warnings and restart keys of the change', async () => {
    const added = await patch({ channels: { a2a: { peers: { athena: { token: '${ATHENA_TOKEN}' } } } } }, '*').expect(200);
    expect(added.body.impact.a2a.peersAdded).toEqual(['athena']);
    expect(added.body.warnings).toEqual(
      expect.arrayContaining([{ path: 'channels.a2a.peers.athena.token', message: expect.stringContaining('ATHENA_TOKEN is not set') }]),
    );
    const moved = await patch({ gateway: { port: 1 } }, '*').expect(200);
    expect(moved.body.pendingRestart).toEqual(['gateway.port']);
    const removed = await patch({ gateway: { port: null }, channels: { a2a: { peers: { athena: null } } } }, '*').expect(200);
    expect(removed.body.impact.a2a.peersRemoved).toEqual(['athena']);
    expect(removed.body.pendingRestart).toEqual([]);
    expect(await readConfig()).not.toContain('athena');
  });

  it('If-Match: missing → 428, stale → 412, quoted ETag and * accepted', async () => {
    const text = await readConfig();
    const missing = await patch({ session: { mainKey: 'home' } }).expect(428);
    expect(missing.body.detail).toMatch(/If-Match/);
    const current = await revision();
    const stale = await patch({ session: { mainKey: 'home' } }, 'abcdef012345').expect(412);
    expect(stale.body.detail).toContain(current);
    expect(await readConfig()).toBe(text);
    const quoted = await patch({ session: { mainKey: 'home' } }, `"${current}"`).expect(200);
    const any = await patch({ session: { mainKey: 'lobby' } }, '*').expect(200);
    expect(any.body.revision).not.toBe(quoted.body.revision);
    await patch({ session: { mainKey: null } }, `"${any.body.revision}"`).expect(200);
    expect(await readConfig()).toBe(text);
  });

  it('an invalid result → 422 with dotted paths, nothing written', async () => {
    const text = await readConfig();
    // "/nope" is wrong in form; a bare "nope" could be an alias, which is checked after the schema's errors.
    const res = await patch({ gateway: { port: 70000 }, agents: { defaults: { model: '/nope' } } }, '*').expect(422);
    const paths = res.body.errors.filter((e: { severity: string }) => e.severity === 'error').map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['gateway.port']));
    expect(paths).toEqual(expect.arrayContaining(['agents.defaults.model']));
    expect(await readConfig()).toBe(text);
  });

  it('a literal secret → 422 naming its path, never its value; allowed with ?allowLiteralSecrets=true', async () => {
    const text = await readConfig();
    const secret = 'literal-zeus-secret-9f8e7d';
    const body = {
      channels: { a2a: { peers: { zeus: { token: secret } } } },
      models: { providers: { echo: { apiKey: 'sk-literal-0000' } } },
    };
    const refused = await patch(body, '*').expect(422);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'channels.a2a.peers.zeus.token',
      'models.providers.echo.apiKey',
    ]);
    expect(JSON.stringify(refused.body)).not.toContain(secret);
    expect(await readConfig()).toBe(text);
    const tokens = [
      { name: 'root', token: '${ADMIN_TOKEN}', role: 'admin' },
      { name: 'ci', token: '${VIEWER_TOKEN}', role: 'operator' },
      { name: 'extra', token: 'plain-admin-token-123', role: 'viewer' },
    ];
    const adminToken = await patch({ gateway: { admin: { tokens } } }, '*').expect(422);
    expect(adminToken.body.errors.map((e: { path: string }) => e.path)).toEqual(['gateway.admin.tokens[2].token']);
    await request(gw.url)
      .patch('/admin/config?allowLiteralSecrets=maybe')
      .set(bearer(ADMIN))
      .set('If-Match', '*')
      .send({ session: { mainKey: 'x' } })
      .expect(400)
      .expect((r) => expect(r.body.detail).toMatch(/allowLiteralSecrets must be true or false/));
    const allowed = await request(gw.url)
      .patch('/admin/config?allowLiteralSecrets=true')
      .set(bearer(ADMIN))
      .set('If-Match', '*')
      .send({ channels: { a2a: { peers: { zeus: { token: secret } } } } })
      .expect(200);
    expect(allowed.body.impact.a2a.peersAdded).toEqual(['zeus']);
    expect(JSON.stringify(allowed.body)).not.toContain(secret);
    expect(await readConfig()).toContain(`token: "${secret}"`);
    await patch({ channels: { a2a: { peers: { zeus: null } } } }, '*').expect(200);
    expect(await readConfig()).toBe(text);
  });

  it('bad input: not an object, not JSON, a viewer; the gateway keeps serving', async () => {
    const text = await readConfig();
    const array = await patch([{ op: 'add' }], '*').expect(400);
    expect(array.body.detail).toMatch(/JSON Merge Patch object.*not an array/);
    const asText = await request(gw.url)
      .patch('/admin/config')
      .set(bearer(ADMIN))
      .set(API_CLIENT)
      .set('If-Match', '*')
      .set('Content-Type', 'text/plain')
      .send('{ a: 1 }')
      .expect(400);
    expect(asText.body.detail).toMatch(/application\/merge-patch\+json or application\/json \(got Content-Type text\/plain\)/);
    const broken = await request(gw.url)
      .patch('/admin/config')
      .set(bearer(ADMIN))
      .set('If-Match', '*')
      .set('Content-Type', 'application/json')
      .send('{ "a": ')
      .expect(400);
    expect(broken.body.status).toBe(400);
    await patch({ session: { mainKey: 'x' } }, '*', VIEWER).expect(403);
    const unknown = await patch({ sesion: { mainKey: 'x' } }, '*').expect(422);
    expect(unknown.body.errors[0]).toMatchObject({ path: 'sesion', message: expect.stringContaining('did you mean "session"') });
    const layout = await patch({ $include: 'other.json5' }, '*').expect(409);
    expect(layout.body.detail).toMatch(/\$include/);
    expect(await readConfig()).toBe(text);
    await request(gw.url).get('/healthz').expect(200);
  });

  it('is described in the OpenAPI document with its examples, headers and errors, as are history and rollback', async () => {
    const doc = (await request(gw.url).get('/docs-json').set(bearer(ADMIN)).expect(200)).body;
    const op = doc.paths['/admin/config'].patch;
    expect(op.description).toMatch(/RFC 7396/);
    expect(Object.keys(op.requestBody.content)).toEqual(['application/merge-patch+json', 'application/json']);
    expect(op.requestBody.content['application/json'].examples.agentToAgentOff.value).toEqual({
      tools: { agentToAgent: { enabled: false } },
    });
    expect(op.parameters.find((p: { name: string }) => p.name === 'If-Match').required).toBe(true);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '409', '412', '413', '422', '428']);
    expect(doc.paths['/admin/config/history'].get.responses['200']).toBeDefined();
    expect(doc.paths['/admin/config/history/{revision}'].get.responses['404']).toBeDefined();
    expect(doc.paths['/admin/config/rollback'].post.requestBody.content['application/json'].examples.rollback.value).toEqual({
      revision: '3f9a1c2b7d10',
    });
  });

  it('every write is audited with its caller', async () => {
    const lines = (await fs.readFile(path.join(gw.stateDir, 'audit.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const writes = lines.filter((l) => l.method === 'PATCH' && l.path === '/admin/config');
    expect(writes.filter((l) => l.status === 200).length).toBeGreaterThanOrEqual(10);
    expect(writes.every((l) => l.subject === 'token:root' || l.status === 403)).toBe(true);
    expect(writes.some((l) => l.status === 412) && writes.some((l) => l.status === 422) && writes.some((l) => l.status === 428)).toBe(true);
  });
});

describe('PATCH /admin/config with $include (e2e)', () => {
  const ROOT = `{
  gateway: { admin: { tokens: [{ name: "root", token: "\${ADMIN_TOKEN}", role: "admin" }] } },
  // the agents live in their own file
  agents: { $include: "agents.json5" },
  bindings: [{ agentId: "main", match: { channel: "http", accountId: "a" } }], // root's binding
  channels: {
    a2a: { $include: "peers.json5", enabled: true }, // peers in a file, the switch here
  },
  session: { $include: ["session-base.json5", "session-more.json5"] },
  $include: "more-bindings.json5",
}
`;
  const FILES = {
    'agents.json5': '{\n  // agents file\n  list: [{ id: "main" }, { id: "support" }],\n}\n',
    'peers.json5': '{\n  peers: {\n    hermes: { token: "${HERMES_TOKEN}" }, // hermes\n  },\n}\n',
    'session-base.json5': '{ dmScope: "main" }\n',
    'session-more.json5': '{ mainKey: "main" } // later file\n',
    'more-bindings.json5': '{ bindings: [{ agentId: "support", match: { channel: "http", accountId: "b" } }] }\n',
  };
  let gw: TestGateway;
  const read = (name: string) => fs.readFile(path.join(gw.dir, name), 'utf8');
  const patch = (body: unknown) =>
    request(gw.url)
      .patch('/admin/config')
      .set(bearer(ADMIN))
      .set('If-Match', '*')
      .set('Content-Type', 'application/json')
      .send(body as object);

  beforeAll(async () => {
    gw = await startTestGateway(ROOT, { env: WRITE_ENV, files: FILES });
  });
  afterAll(() => gw.stop());

  it('the plan of the same patch shows the included file changing, and writes nothing', async () => {
    const res = await request(gw.url)
      .post('/admin/config/plan')
      .set(bearer(ADMIN))
      .send({ mergePatch: { agents: { list: [{ id: 'main' }, { id: 'support', name: 'Support desk' }] } } })
      .expect(200);
    expect(res.body.valid).toBe(true);
    expect(res.body.diff).toContain('--- agents.json5\tcurrent');
    expect(res.body.diff).toMatch(/^\+.*\{ id: "support", name: "Support desk" \}/m);
    expect(res.body.diff).not.toContain('--- openclaw.json');
    expect(await read('agents.json5')).toBe(FILES['agents.json5']);
  });

  it('edits the included file that holds the node, and only it', async () => {
    const res = await patch({ agents: { list: [{ id: 'main' }, { id: 'support', name: 'Support desk' }] } }).expect(200);
    // The list is changed element by element: the other element and the comment keep their bytes.
    expect(await read('agents.json5')).toBe(FILES['agents.json5'].replace('{ id: "support" }', '{ id: "support", name: "Support desk" }'));
    expect(await read('openclaw.json')).toBe(ROOT);
    expect(res.body.revision).toBe((await request(gw.url).get('/admin/config').set(bearer(ADMIN))).body.revision);
    expect((await request(gw.url).get('/admin/agents/support').set(bearer(ADMIN))).body.name).toBe('Support desk');
  });

  it('a new key of a section goes into its file; a key written next to $include stays in the root', async () => {
    await patch({ channels: { a2a: { peers: { athena: { token: '${ATHENA_TOKEN}' } }, enabled: false } } }).expect(200);
    const peers = await read('peers.json5');
    expect(peers).toMatch(/athena: \{\s+token: "\$\{ATHENA_TOKEN\}",\s+\}/);
    expect(peers).toContain('hermes: { token: "${HERMES_TOKEN}" }, // hermes');
    expect(await read('openclaw.json')).toBe(ROOT.replace('enabled: true }', 'enabled: false }'));
    await patch({ agents: { defaults: { model: 'echo/other' } } }).expect(200);
    expect(await read('agents.json5')).toMatch(/\n {2}defaults: \{\n {4}model: "echo\/other",\n {2}\},\n\}\n$/);
  });

  it('of two included files the later one wins, so it is edited; a list built from two files → 409', async () => {
    await patch({ session: { mainKey: 'home', dmScope: 'per-peer' } }).expect(200);
    expect(await read('session-more.json5')).toBe('{ mainKey: "home" } // later file\n');
    expect(await read('session-base.json5')).toBe('{ dmScope: "per-peer" }\n');
    const before = await read('openclaw.json');
    const res = await patch({ bindings: [] }).expect(409);
    expect(res.body.detail).toMatch(/bindings is put together from several files \(openclaw\.json, more-bindings\.json5\)/);
    expect(await read('openclaw.json')).toBe(before);
  });
});
