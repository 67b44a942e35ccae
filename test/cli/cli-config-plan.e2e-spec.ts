import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { CliBuild, CliRun, runCli as runCliProcess, transpileCli } from '../fixtures/cli-runner';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

const ADMIN = 'cli-plan-admin-token-1234';
const VIEWER = 'cli-plan-viewer-token-5678';
const CONFIG = `{
  agents: { list: [{ id: "main" }, { id: "support" }] },
  bindings: [{ agentId: "support", match: { channel: "http", accountId: "web" } }],
  tools: { agentToAgent: { enabled: true }, sessions: { visibility: "all" } },
  budgets: [{ name: "main-daily", agent: "main", tokens: 1000, window: "day" }],
  gateway: { admin: { tokens: [{ name: "root", token: "${ADMIN}", role: "admin" }, { name: "ro", token: "${VIEWER}", role: "viewer" }] } },
}
`;

/** `clawgate config plan` as a user runs it: a separate process against a real running gateway. */
describe('clawgate config plan (e2e)', () => {
  let build: CliBuild;
  let gw: TestGateway;
  let candidate: string;
  const runCli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> =>
    runCliProcess(build.cliJs, args, { HOME: gw.dir, CLAWGATE_URL: gw.url, CLAWGATE_TOKEN: ADMIN, ...env });

  beforeAll(async () => {
    [build, gw] = await Promise.all([transpileCli(), startTestGateway(CONFIG)]);
    candidate = path.join(gw.dir, 'candidate.json5');
    await fs.writeFile(candidate, CONFIG.replace('enabled: true', 'enabled: false').replace('agentId: "support"', 'agentId: "main"'));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([build?.remove(), gw?.stop()]);
  });

  it('prints what changes: routing, agent-to-agent pairs and the diff', async () => {
    const run = await runCli(['config', 'plan', candidate]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^valid \(revision [0-9a-f]{12} -> [0-9a-f]{12}\)$/m);
    expect(run.stdout).toContain('routing:\n  {"channel":"http","accountId":"web"}: support (accountId #0) -> main (accountId #0)\n');
    expect(run.stdout).toMatch(/^ {2}main -> support: allowed \(.*\) => denied by policy \(tools\.agentToAgent\.enabled is not true\)$/m);
    expect(run.stdout).toContain('memory: no change\n');
    expect(run.stdout).toContain('agents: no change\n');
    expect(run.stdout).toContain('budgets: no change\n');
    expect(run.stdout).toContain('+++ openclaw.json\tcandidate');
    expect(run.stdout).not.toContain(ADMIN);
  });

  it('names the agents added and removed, and the agent-to-agent pairs that appear or vanish with them', async () => {
    const swapped = path.join(gw.dir, 'swapped.json5');
    await fs.writeFile(swapped, CONFIG.replace('{ id: "support" }', '{ id: "coding" }').replace('agentId: "support"', 'agentId: "coding"'));
    const run = await runCli(['config', 'plan', swapped]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('agents:\n  + coding\n  - support\n');
    expect(run.stdout).toMatch(/^ {2}- main -> support: was allowed \(.*\)$/m);
    expect(run.stdout).toMatch(/^ {2}\+ main -> coding: allowed \(.*\)$/m);
    expect(run.stdout).toMatch(/^ {2}\+ coding -> main: allowed \(.*\)$/m);
  });

  it('names the budgets added, removed and changed, and the agents whose budgets change', async () => {
    const budgets = path.join(gw.dir, 'budgets.json5');
    await fs.writeFile(
      budgets,
      CONFIG.replace(
        'budgets: [{ name: "main-daily", agent: "main", tokens: 1000, window: "day" }]',
        'budgets: [{ name: "main-daily", agent: "*", tokens: 2000, window: "day", softAt: 0.8 }, { name: "sessions", session: "agent:main:*", cost: 1, window: "run" }]',
      ),
    );
    const run = await runCli(['config', 'plan', budgets]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'budgets:\n' +
        '  + sessions: 1 cost per run for session agent:main:*\n' +
        '  main-daily: 1000 tokens per day for agent main (main) -> 2000 tokens per day for agent * (main, support), soft at 80% +support\n' +
        '  agent main: changed main-daily\n' +
        '  agent support: gains main-daily\n',
    );
    const json = await runCli(['config', 'plan', budgets, '--json']);
    const impact = (JSON.parse(json.stdout) as { impact: { budgets: { changed: Array<{ name: string; keys: string[] }> } } }).impact;
    expect(impact.budgets.changed.map((c) => [c.name, c.keys])).toEqual([['main-daily', ['pattern', 'tokens', 'softAt']]]);
  });

  it('--json prints the answer of POST /admin/config/plan', async () => {
    const run = await runCli(['config', 'plan', candidate, '--json']);
    expect(run.code).toBe(0);
    const direct = await request(gw.url)
      .post('/admin/config/plan')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send({ document: await fs.readFile(candidate, 'utf8') })
      .expect(200);
    expect(JSON.parse(run.stdout)).toEqual(direct.body);
  });

  it('exits 1 for an invalid candidate, a missing file, a refused token and an unreachable gateway, saying why', async () => {
    const invalid = path.join(gw.dir, 'invalid.json5');
    await fs.writeFile(invalid, '{ agents: { list: [{ id: "main", modle: "x" }] } }');
    const bad = await runCli(['config', 'plan', invalid]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('error: agents.list[0].modle: unknown key (did you mean "model"?)');

    const missing = await runCli(['config', 'plan', path.join(gw.dir, 'nope.json5')]);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/cannot read .*nope\.json5 \(ENOENT\)/);

    const viewer = await runCli(['config', 'plan', candidate], { CLAWGATE_TOKEN: VIEWER });
    expect(viewer.code).toBe(1);
    expect(viewer.stderr).toContain('/admin/config/plan answered HTTP 403: this endpoint requires the "admin" role');

    const away = await runCli(['config', 'plan', candidate], { CLAWGATE_URL: 'http://127.0.0.1:1' });
    expect(away.code).toBe(1);
    expect(away.stderr).toMatch(/cannot reach the gateway at http:\/\/127\.0\.0\.1:1 .*set CLAWGATE_URL/);
  });
});
