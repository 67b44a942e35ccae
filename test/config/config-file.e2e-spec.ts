import { promises as fs } from 'node:fs';
import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * GET/PUT /admin/config/file: the root file as an editor sees it (comments kept, literal secrets redacted) and
 * written back whole, "[redacted]" keeping the secret the file holds there. docs/admin-config-api.md.
 */

const ADMIN = 'file-admin-token-3c5e7a9b1d2f4e6a';
const VIEWER = 'file-viewer-token-8b6d4f2a0c9e';
const FILE = `{
  // Agents: the main one answers what no binding claims.
  agents: { list: [{ id: "main", default: true }, { id: "coding" }] },
  gateway: { admin: { tokens: [
    { name: "root", token: "${ADMIN}", role: "admin" }, // literal on purpose: the editor must keep it
    { name: "dash", token: "${VIEWER}", role: "viewer" },
  ] } },
}
`;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('GET/PUT /admin/config/file (e2e)', () => {
  let gw: TestGateway;
  beforeEach(async () => {
    gw = await startTestGateway(FILE);
  });
  afterEach(() => gw.stop());

  const read = () => request(gw.url).get('/admin/config/file').set(bearer(VIEWER)).expect(200);
  const put = (text: string, ifMatch: string | null) => {
    const req = request(gw.url).put('/admin/config/file').set(bearer(ADMIN)).set('Content-Type', 'application/json5');
    return (ifMatch === null ? req : req.set('If-Match', ifMatch)).send(text);
  };

  it('serves the file with its comments, secrets redacted, and the revision as ETag', async () => {
    const res = await read();
    expect(res.body.text).toContain('// Agents: the main one answers what no binding claims.');
    expect(res.body.text).toContain('// literal on purpose');
    expect(res.text).not.toContain(ADMIN);
    expect(res.text).not.toContain(VIEWER);
    expect(res.body.text.match(/"\[redacted\]"/g)).toHaveLength(2);
    expect(res.headers.etag).toBe(`"${res.body.revision}"`);
    expect(res.body).toMatchObject({ configPath: gw.configPath, includes: [] });
  });

  it('writes the edited text back as it is, comments and all, each [redacted] keeping its secret', async () => {
    const { body: file, headers } = await read();
    const edited = file.text
      .replace('// Agents: the main one answers what no binding claims.', '// Agents: coding joined.')
      .replace('{ id: "coding" }', '{ id: "coding" },\n    { id: "ops" } /* new */');
    const res = await put(edited, headers.etag).expect(200);
    expect(res.headers.etag).toBe(`"${res.body.revision}"`);
    expect(res.body.impact.agents).toEqual({ added: ['ops'], removed: [] });
    const onDisk = await fs.readFile(gw.configPath, 'utf8');
    expect(onDisk).toBe(edited.replace('"[redacted]"', `"${ADMIN}"`).replace('"[redacted]"', `"${VIEWER}"`));
    // The secrets still work, and the history records the write as the API's.
    await request(gw.url).get('/admin/config/status').set(bearer(VIEWER)).expect(200);
    const history = await request(gw.url).get('/admin/config/history').set(bearer(ADMIN)).expect(200);
    expect(history.body.items[0]).toMatchObject({ revision: res.body.revision, source: 'api', subject: 'token:root' });
  });

  it('validates and plans a redacted text as it would be written', async () => {
    const { body: file } = await read();
    const validated = await request(gw.url)
      .post('/admin/config/validate')
      .set(bearer(ADMIN))
      .set('Content-Type', 'application/json5')
      .send(file.text)
      .expect(200);
    expect(validated.body.revision).toBe(file.revision); // the same file: the same revision
    const plan = await request(gw.url).post('/admin/config/plan').set(bearer(ADMIN)).send({ document: file.text }).expect(200);
    expect(plan.body).toMatchObject({ valid: true, candidateRevision: file.revision, diff: '' });
    expect(plan.body.impact.admin.tokensChanged).toEqual([]);
    // An issue comes with the line of the text it is about: what the editor marks.
    const typo = file.text.replace('{ id: "coding" }', '{ id: "coding", modle: "x" }');
    const line = typo.split('\n').findIndex((l: string) => l.includes('modle')) + 1;
    const invalid = await request(gw.url)
      .post('/admin/config/validate')
      .set(bearer(ADMIN))
      .set('Content-Type', 'application/json5')
      .send(typo)
      .expect(422);
    expect(invalid.body.errors).toContainEqual(expect.objectContaining({ path: 'agents.list[1].modle', line }));
    const planned = await request(gw.url).post('/admin/config/plan').set(bearer(ADMIN)).send({ document: typo }).expect(200);
    expect(planned.body.errors).toContainEqual(expect.objectContaining({ path: 'agents.list[1].modle', line }));
  });

  it('refuses what it cannot write, naming why, and writes nothing', async () => {
    const { body: file, headers } = await read();
    await put(file.text, null).expect(428);
    await put(file.text, '"000000000000"').expect(412);
    const invalid = await put(file.text.replace('{ id: "coding" }', '{ id: "coding", modle: "x" }'), headers.etag).expect(422);
    expect(JSON.stringify(invalid.body.errors)).toContain('agents.list[1].modle');
    // The two tokens swapped places: "[redacted]" would hand root's secret to dash.
    const swapped = file.text.replace(
      /\{ name: "root"[^}]*\}, \/\/ literal on purpose: the editor must keep it\n(\s*)(\{ name: "dash"[^}]*\}),/,
      '$2,\n$1{ name: "root", token: "[redacted]", role: "admin" },',
    );
    expect(swapped).not.toBe(file.text);
    const refused = await put(swapped, headers.etag).expect(422);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'gateway.admin.tokens[0].token',
      'gateway.admin.tokens[1].token',
    ]);
    await put('   ', headers.etag).expect(400);
    await request(gw.url)
      .put('/admin/config/file')
      .set(bearer(VIEWER))
      .set('Content-Type', 'application/json5')
      .set('If-Match', headers.etag)
      .send(file.text)
      .expect(403);
    expect(await fs.readFile(gw.configPath, 'utf8')).toBe(FILE);
  });
});
