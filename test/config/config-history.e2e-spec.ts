import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { CliBuild, runCli, transpileCli } from '../fixtures/cli-runner';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { ADMIN, EVERY_SECTION, VIEWER, WRITE_ENV } from '../support/config-write-fixture';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('config history and rollback (e2e)', () => {
  let gw: TestGateway;
  let build: CliBuild;
  const get = (url: string, token = ADMIN) => request(gw.url).get(url).set(bearer(token));
  const revision = async () => (await get('/admin/config').expect(200)).body.revision as string;
  const rollback = (body: unknown, ifMatch?: string, token = ADMIN) => {
    const req = request(gw.url).post('/admin/config/rollback').set(bearer(token));
    if (ifMatch !== undefined) req.set('If-Match', ifMatch);
    return req.send(body as object);
  };
  let first: string;

  // The CLI is transpiled first (as the other suites that run it do): on a loaded machine that alone can take 30 s.
  beforeAll(async () => {
    build = await transpileCli();
    gw = await startTestGateway(EVERY_SECTION, { env: WRITE_ENV });
    first = await revision();
  }, 120_000);
  afterAll(async () => {
    await gw.stop();
    await build.remove();
  });

  it('records every applied revision: at start, from the API, from a file edit and from the CLI', async () => {
    const boot = (await get('/admin/config/history').expect(200)).body;
    expect(boot).toEqual({
      items: [
        {
          revision: first,
          appliedAt: expect.any(String),
          source: 'file',
          subject: 'file',
          summary: expect.stringMatching(/^applied at start/),
        },
      ],
    });
    expect(new Date(boot.items[0].appliedAt).toISOString()).toBe(boot.items[0].appliedAt);

    const patched = await request(gw.url)
      .patch('/admin/config')
      .set(bearer(ADMIN))
      .set('If-Match', first)
      .send({ tools: { agentToAgent: { enabled: true, allow: ['*'] }, sessions: { visibility: 'all' } }, session: { mainKey: 'home' } })
      .expect(200);

    const edited = (await fs.readFile(gw.configPath, 'utf8')).replace('dmScope: "main"', 'dmScope: "per-peer"');
    await gw.writeConfig(edited);
    const byFile = await waitFor('the file edit applied', async () =>
      (await revision()) !== patched.body.revision ? revision() : undefined,
    );

    const cli = await runCli(build.cliJs, ['agents', 'add', 'coder', '--config', gw.configPath, '--state-dir', gw.stateDir], {
      HOME: gw.dir,
    });
    expect(cli.code).toBe(0);
    const byCli = await waitFor('the CLI edit applied', async () => ((await revision()) !== byFile ? revision() : undefined));

    const items = (await get('/admin/config/history').expect(200)).body.items;
    expect(items.map((i: { revision: string }) => i.revision)).toEqual([byCli, byFile, patched.body.revision, first]);
    expect(items[0]).toMatchObject({
      source: 'cli',
      subject: expect.stringMatching(/^cli:/),
      summary: expect.stringContaining('changed agents'),
    });
    expect(items[1]).toMatchObject({ source: 'file', subject: 'file', summary: 'changed session' });
    expect(items[2]).toMatchObject({ source: 'api', subject: 'token:root' });
    expect(items[2].summary).toMatch(/^changed tools, session; 2 agent-to-agent pair\(s\) change$/);
  });

  it('pages newest first with nextCursor', async () => {
    const all = (await get('/admin/config/history?limit=100').expect(200)).body;
    expect(all.nextCursor).toBeUndefined();
    const one = (await get('/admin/config/history?limit=3').expect(200)).body;
    expect(one.items).toEqual(all.items.slice(0, 3));
    const two = (await get(`/admin/config/history?limit=3&cursor=${one.nextCursor}`).expect(200)).body;
    expect(two.items).toEqual(all.items.slice(3, 6));
    expect(two.nextCursor).toBeUndefined();
  });

  it('one revision: its document as applied and the diff to the one before', async () => {
    const res = (await get(`/admin/config/history/${first}`).expect(200)).body;
    expect(res).toMatchObject({ revision: first, source: 'file', subject: 'file', document: EVERY_SECTION, diff: '' });
    expect(res.files).toEqual([{ path: 'openclaw.json', text: EVERY_SECTION }]);
    const latest = (await get('/admin/config/history?limit=2').expect(200)).body.items;
    const byFile = (await get(`/admin/config/history/${latest[1].revision}`).expect(200)).body;
    expect(byFile.diff).toMatch(/^- {2}session: \{ dmScope: "main", mainKey: "home" \}.*$/m);
    expect(byFile.diff).toMatch(/^\+ {2}session: \{ dmScope: "per-peer", mainKey: "home" \}.*$/m);
    expect(byFile.diff).toContain('--- openclaw.json\tprevious');
  });

  it('rollback writes the recorded document back byte for byte and records it as a rollback', async () => {
    const current = await revision();
    const res = await rollback({ revision: first }, `"${current}"`).expect(200);
    expect(res.body.revision).toBe(first);
    expect(res.headers.etag).toBe(`"${first}"`);
    expect(res.body.impact.agentToAgent.length).toBeGreaterThan(0);
    expect(await fs.readFile(gw.configPath, 'utf8')).toBe(EVERY_SECTION);
    expect((await get('/admin/agents/coder')).status).toBe(404);
    const [newest] = (await get('/admin/config/history').expect(200)).body.items;
    expect(newest).toMatchObject({ revision: first, source: 'rollback', subject: 'token:root' });
    const audit = (await fs.readFile(path.join(gw.stateDir, 'audit.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(
      audit.some((l) => l.method === 'POST' && l.path === '/admin/config/rollback' && l.status === 200 && l.subject === 'token:root'),
    ).toBe(true);
  });

  it('bad input on every endpoint is named; viewers are refused; nothing is written', async () => {
    const text = await fs.readFile(gw.configPath, 'utf8');
    const current = await revision();
    expect((await get('/admin/config/history/not-a-rev').expect(400)).body.detail).toMatch(/12 hexadecimal/);
    expect((await get('/admin/config/history/abcdefabcdef').expect(404)).body.detail).toMatch(/not in the config history/);
    expect((await get('/admin/config/history?limit=0').expect(400)).body.detail).toMatch(/limit must be an integer from 1 to 100/);
    expect((await get('/admin/config/history?limit=abc').expect(400)).body.detail).toMatch(/limit/);
    expect((await get('/admin/config/history?cursor=bogus').expect(400)).body.detail).toMatch(/cursor/);
    expect((await rollback({}, current).expect(400)).body.detail).toMatch(/revision must be a string/);
    expect((await rollback({ revision: 5 }, current).expect(400)).body.detail).toMatch(/revision must be a string/);
    expect((await rollback({ revision: first, extra: 1 }, current).expect(400)).body.detail).toMatch(/extra/);
    expect((await rollback({ revision: 'abcdefabcdef' }, current).expect(404)).body.detail).toMatch(/not in the config history/);
    expect((await rollback({ revision: first }).expect(428)).body.detail).toMatch(/If-Match/);
    expect((await rollback({ revision: first }, 'abcdef012345').expect(412)).body.detail).toContain(current);
    await get('/admin/config/history', VIEWER).expect(403);
    await get(`/admin/config/history/${first}`, VIEWER).expect(403);
    await rollback({ revision: first }, current, VIEWER).expect(403);
    expect(await fs.readFile(gw.configPath, 'utf8')).toBe(text);
  });

  it('a rollback that would bring a literal secret back needs ?allowLiteralSecrets=true; answers never show it', async () => {
    const secret = 'literal-zeus-secret-4b5c6d';
    const withSecret = await request(gw.url)
      .patch('/admin/config?allowLiteralSecrets=true')
      .set(bearer(ADMIN))
      .set('If-Match', '*')
      .send({ channels: { a2a: { peers: { zeus: { token: secret } } } } })
      .expect(200);
    await request(gw.url)
      .patch('/admin/config')
      .set(bearer(ADMIN))
      .set('If-Match', '*')
      .send({ channels: { a2a: { peers: { zeus: null } } } })
      .expect(200);
    const detail = await get(`/admin/config/history/${withSecret.body.revision}`).expect(200);
    expect(detail.body.document).toContain('token: "[redacted]"');
    expect(JSON.stringify(detail.body)).not.toContain(secret);
    const refused = await rollback({ revision: withSecret.body.revision }, '*').expect(422);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(['channels.a2a.peers.zeus.token']);
    expect(JSON.stringify(refused.body)).not.toContain(secret);
    expect(await fs.readFile(gw.configPath, 'utf8')).not.toContain(secret);
    await request(gw.url)
      .post('/admin/config/rollback?allowLiteralSecrets=true')
      .set(bearer(ADMIN))
      .set('If-Match', '*')
      .send({ revision: withSecret.body.revision })
      .expect(200);
    expect(await fs.readFile(gw.configPath, 'utf8')).toContain(secret);
  });

  it('the agents endpoints are recorded with their caller too', async () => {
    const res = await request(gw.url)
      .post('/admin/agents')
      .set(bearer(ADMIN))
      .set('If-Match', await revision())
      .send({ id: 'helper' });
    expect(res.status).toBe(201);
    const [newest] = (await get('/admin/config/history').expect(200)).body.items;
    expect(newest).toMatchObject({
      revision: res.body.revision,
      source: 'api',
      subject: 'token:root',
      summary: 'changed agents; agents added: helper',
    });
  });

  it('the history is kept in the state dir, readable by the gateway user only', async () => {
    const stat = await fs.stat(path.join(gw.stateDir, 'config-history.sqlite'));
    expect(stat.mode & 0o777).toBe(0o600);
  });
});

describe('rollback of a revision split over $include files (e2e)', () => {
  const ROOT = `{
  gateway: { admin: { tokens: [{ name: "root", token: "\${ADMIN_TOKEN}", role: "admin" }] } },
  agents: { $include: "agents.json5" }, // in their own file
}
`;
  const AGENTS = '{\n  // agents file\n  list: [{ id: "main" }, { id: "support" }],\n}\n';
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway(ROOT, { env: WRITE_ENV, files: { 'agents.json5': AGENTS } });
  });
  afterAll(() => gw.stop());

  it('records every file and restores the included one byte for byte', async () => {
    const first = (await request(gw.url).get('/admin/config').set(bearer(ADMIN))).body.revision;
    const detail = (await request(gw.url).get(`/admin/config/history/${first}`).set(bearer(ADMIN)).expect(200)).body;
    expect(detail.files).toEqual([
      { path: 'openclaw.json', text: ROOT },
      { path: 'agents.json5', text: AGENTS },
    ]);
    await request(gw.url)
      .patch('/admin/config')
      .set(bearer(ADMIN))
      .set('If-Match', '*')
      .send({ agents: { list: [{ id: 'main' }] } })
      .expect(200);
    expect(await fs.readFile(path.join(gw.dir, 'agents.json5'), 'utf8')).not.toBe(AGENTS);
    const items = (await request(gw.url).get('/admin/config/history').set(bearer(ADMIN))).body.items;
    const diff = (await request(gw.url).get(`/admin/config/history/${items[0].revision}`).set(bearer(ADMIN))).body.diff;
    expect(diff).toContain('--- agents.json5\tprevious');
    expect(diff).not.toContain('--- openclaw.json');
    await request(gw.url).post('/admin/config/rollback').set(bearer(ADMIN)).set('If-Match', '*').send({ revision: first }).expect(200);
    expect(await fs.readFile(path.join(gw.dir, 'agents.json5'), 'utf8')).toBe(AGENTS);
    expect(await fs.readFile(gw.configPath, 'utf8')).toBe(ROOT);
  });
});
