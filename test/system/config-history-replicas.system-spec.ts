import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { configHistoryDatabasePath } from '../../src/modules/config-plan/history/sqlite-config-history.store';
import { type CliBuild, transpileCli } from '../fixtures/cli-runner';
import { GatewayProcess } from '../fixtures/gateway-process';
import { waitFor } from '../support/gateway-harness';
import { startPostgres, type TestPostgres } from './support/postgres';

jest.setTimeout(120_000);

const ADMIN = 'history-replicas-admin-token-7e1f';
const CONFIG = `{
  gateway: {
    state: { backend: "postgres", url: "\${DATABASE_URL}" },
    reload: { debounceMs: 50 },
    admin: { tokens: [{ name: "root", token: "\${ADMIN_TOKEN}", role: "admin" }] },
  },
  agents: { list: [{ id: "main", default: true }] },
}
`;

interface Item {
  revision: string;
  source: string;
  subject: string;
  summary: string;
}

/**
 * Two `clawgate gateway` replicas watching one openclaw.json (a shared volume, a ConfigMap), each with its own state
 * dir, on one PostgreSQL: each applies every edit, and the shared config history records it once, attributed to the
 * admin who made it, whichever replica is asked.
 */
describe('the config history of two replicas on one PostgreSQL (system)', () => {
  let postgres: TestPostgres;
  let build: CliBuild;
  let dir: string;
  let url: string;
  let configPath: string;
  const replicas: GatewayProcess[] = [];
  const stateDirs: string[] = [];

  const history = async (replica: GatewayProcess): Promise<Item[]> =>
    (await request(replica.url).get('/admin/config/history').set('Authorization', `Bearer ${ADMIN}`).expect(200)).body.items;
  const served = async (replica: GatewayProcess): Promise<string> =>
    (await request(replica.url).get('/admin/config').set('Authorization', `Bearer ${ADMIN}`).expect(200)).body.revision;

  beforeAll(async () => {
    [postgres, build] = await Promise.all([startPostgres(), transpileCli()]);
    url = await postgres.createDatabase('history');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-history-replicas-'));
    configPath = path.join(dir, 'config', 'openclaw.json');
    await fs.mkdir(path.dirname(configPath));
    await fs.writeFile(configPath, CONFIG);
    // Started together: both find the same revision at start, and both record it.
    const started = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const home = path.join(dir, name);
        await fs.mkdir(home);
        stateDirs.push(path.join(home, 'state'));
        return GatewayProcess.start({
          cliJs: build.cliJs,
          configPath,
          stateDir: path.join(home, 'state'),
          home,
          env: { DATABASE_URL: url, ADMIN_TOKEN: ADMIN },
        });
      }),
    );
    replicas.push(...started);
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await build?.remove();
    await postgres?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  // The normalized config holds state-dir paths, so replicas whose state dirs differ name the same files with
  // different revisions; the history keeps the one of the replica that made the write.
  let bootA: string;
  let bootB: string;

  it('records the revision found at start once, however many replicas started with it', async () => {
    const [a, b] = replicas;
    [bootA, bootB] = await Promise.all([served(a), served(b)]);
    const items = await history(a);
    expect(items).toEqual([
      expect.objectContaining({ source: 'file', subject: 'file', summary: expect.stringMatching(/^applied at start/) }),
    ]);
    expect([bootA, bootB]).toContain(items[0].revision);
    expect(await history(b)).toEqual(items);
  });

  it('an admin write on A, applied by both, is in the history of both once, with its caller and its revision', async () => {
    const [a, b] = replicas;
    const patched = await request(a.url)
      .patch('/admin/config')
      .set('Authorization', `Bearer ${ADMIN}`)
      .set('If-Match', bootA)
      .send({ agents: { list: [{ id: 'main', default: true }, { id: 'support' }] } })
      .expect(200);
    const written: string = patched.body.revision;
    // B's watcher applies the same edit of the shared file; its history read waits for its own record.
    await waitFor('replica B serving the edit', async () => (await served(b)) !== bootB, 15_000);

    const onB = await history(b);
    expect(onB).toHaveLength(2);
    expect(onB[0]).toEqual({
      revision: written,
      appliedAt: expect.any(String),
      source: 'api',
      subject: 'token:root',
      summary: 'changed agents; agents added: support',
    });
    expect(onB[1]).toMatchObject({ source: 'file', summary: expect.stringMatching(/^applied at start/) });
    expect(await history(a)).toEqual(onB);
  });

  it('a rollback on B is recorded once as a rollback, and the revision it restored is shown by A', async () => {
    const [a, b] = replicas;
    const [written, boot] = await history(a);
    const rolledBack = await request(b.url)
      .post('/admin/config/rollback')
      .set('Authorization', `Bearer ${ADMIN}`)
      .set('If-Match', '*')
      .send({ revision: boot.revision })
      .expect(200);
    expect(rolledBack.body.revision).toBe(bootB);
    await waitFor('replica A serving the rollback', async () => (await served(a)) === bootA, 15_000);
    const items = await history(a);
    expect(items.map((i) => [i.revision, i.source, i.subject])).toEqual([
      [bootB, 'rollback', 'token:root'],
      [written.revision, 'api', 'token:root'],
      [boot.revision, 'file', 'file'],
    ]);
    expect(await history(b)).toEqual(items);
    const detail = await request(a.url)
      .get(`/admin/config/history/${written.revision}`)
      .set('Authorization', `Bearer ${ADMIN}`)
      .expect(200);
    expect(detail.body.document).toMatch(/id: "support"/);
    expect(detail.body.diff).toMatch(/^\+ +id: "support",$/m);
  });

  it('keeps the history in PostgreSQL: one row per application, no config-history.sqlite in either state dir', async () => {
    const db = new Client({ connectionString: url });
    await db.connect();
    const rows = (await db.query('SELECT source FROM config_revisions ORDER BY seq')).rows as Array<{ source: string }>;
    await db.end();
    expect(rows.map((r) => r.source)).toEqual(['file', 'api', 'rollback']);
    expect(stateDirs).toHaveLength(2);
    for (const stateDir of stateDirs) {
      expect(existsSync(path.join(stateDir, 'openclaw.last-good.json'))).toBe(true);
      expect(existsSync(configHistoryDatabasePath(stateDir))).toBe(false);
    }
    expect(replicas.map((r) => r.errorLogCount)).toEqual([0, 0]);
  });
});
