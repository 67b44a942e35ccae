import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { AuditLog } from '../../src/modules/admin/audit-log.service';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * The audit log holds what changed state and what was refused, not the calls the console makes while an operator
 * types: validate, plan, the plan's pictures and a dry-run route change nothing (`@ChangesNothing()`), so they are
 * not rows — unless they are denied. Writes, rollbacks and reloads are. docs/admin-security.md#9-audit-log.
 */

const ADMIN = 'admin-token-9b1d3f5a7c2e4d6f';
const VIEWER = 'viewer-token-1a3c5e7b9d2f';
const CONFIG = `{
  // the demo's shape, small: two agents and a binding
  agents: { list: [{ id: "main", default: true }, { id: "coding" }] },
  bindings: [{ agentId: "coding", match: { channel: "http" } }],
  gateway: { admin: { tokens: [
    { name: "root", token: "\${ADMIN_TOKEN}", role: "admin" },
    { name: "dash", token: "${VIEWER}", role: "viewer" },
  ] } },
}`;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

interface AuditRow {
  method: string;
  path: string;
  status: number;
  subject: string;
}

describe('audit log: calls that change nothing (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(CONFIG, { env: { ADMIN_TOKEN: ADMIN } });
  });
  afterAll(() => gw.stop());

  async function auditRows(): Promise<AuditRow[]> {
    await gw.app.get(AuditLog).flush();
    const text = await fs.readFile(path.join(gw.stateDir, 'audit.jsonl'), 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditRow);
  }

  it('records no row for validate, plan, the plan pictures or a dry-run route, and one for each write, rollback and reload', async () => {
    const patch = { agents: { list: [{ id: 'main', default: true }, { id: 'coding' }, { id: 'ops' }] } };
    const admin = () => bearer(ADMIN);
    // What the console's editor sends while an operator types and previews, several times over.
    for (let i = 0; i < 3; i++) {
      await request(gw.url).post('/admin/config/validate').set(admin()).send(patch).expect(200);
      await request(gw.url).post('/admin/config/plan').set(admin()).send({ mergePatch: patch }).expect(200);
      await request(gw.url).post('/admin/topology/plan').set(admin()).send({ mergePatch: patch }).expect(200);
      await request(gw.url).post('/admin/topology/plan.svg').set(admin()).send({ mergePatch: patch }).expect(200);
      await request(gw.url).post('/admin/routing/resolve').set(admin()).send({ channel: 'http' }).expect(200);
    }
    // An invalid candidate is still only a question.
    await request(gw.url)
      .post('/admin/config/validate')
      .set(admin())
      .send({ agents: { list: [{ id: 'main', modle: 'x' }] } })
      .expect(422);
    expect(await auditRows()).toEqual([]);

    // A denied question is a denial: recorded.
    await request(gw.url).post('/admin/config/plan').set(bearer(VIEWER)).send({ mergePatch: patch }).expect(403);
    // The writes.
    const { headers } = await request(gw.url).get('/admin/config').set(admin()).expect(200);
    const before = String(headers.etag);
    const applied = await request(gw.url)
      .patch('/admin/config')
      .set(admin())
      .set('Content-Type', 'application/merge-patch+json')
      .set('If-Match', before)
      .send(JSON.stringify(patch))
      .expect(200);
    await request(gw.url).post('/admin/config/reload').set(admin()).set(API_CLIENT).expect(200);
    await request(gw.url)
      .post('/admin/config/rollback')
      .set(admin())
      .set('If-Match', `"${applied.body.revision}"`)
      .send({ revision: before.replace(/"/g, '') })
      .expect(200);

    const rows = await auditRows();
    expect(rows.map((r) => `${r.method} ${r.path} ${r.status} ${r.subject}`)).toEqual([
      'POST /admin/config/plan 403 token:dash',
      'PATCH /admin/config 200 token:root',
      'POST /admin/config/reload 200 token:root',
      'POST /admin/config/rollback 200 token:root',
    ]);
  });
});
