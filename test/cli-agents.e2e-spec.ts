import { promises as fs } from 'node:fs';
import request from 'supertest';
import { CliBuild, runCli, transpileCli } from './fixtures/cli-runner';
import { startTestGateway, TestGateway, waitFor } from './support/gateway-harness';

describe('clawgate agents ... (CLI against a running gateway)', () => {
  let gw: TestGateway;
  let build: CliBuild;
  beforeAll(async () => {
    build = await transpileCli();
    gw = await startTestGateway(`{
  // kept by the CLI
  agents: { list: [{ id: "main" }] },
}
`);
  });
  afterAll(async () => {
    await gw.stop();
    await build.remove();
  });

  /** Runs the real CLI entry point against the test gateway's config file. */
  const cli = (...args: string[]) =>
    runCli(build.cliJs, [...args, '--config', gw.configPath, '--state-dir', gw.stateDir], { HOME: gw.dir });

  it('adds, names, binds and deletes an agent; the running gateway applies each edit by hot reload', async () => {
    const add = await cli('agents', 'add', 'coding', '--model', 'echo/default', '--name', 'Coder');
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/added agent coding \(revision [0-9a-f]{12}\)/);
    await waitFor('coding in the gateway', async () => (await request(gw.url).get('/admin/agents/coding')).status === 200, 4000);

    const identity = await cli('agents', 'set-identity', '--name', '代码助手', '--emoji', '💻', 'coding');
    expect(identity.code).toBe(0);
    const bind = await cli('agents', 'bind', 'coding', '--channel', 'telegram', '--account', 'work', '--peer', 'group:dev-team');
    expect(bind.code).toBe(0);
    const agent = await waitFor(
      'identity and binding applied',
      async () => {
        const body = (await request(gw.url).get('/admin/agents/coding')).body;
        return body.identity?.emoji === '💻' && body.bindings?.length === 1 ? body : undefined;
      },
      4000,
    );
    expect(agent.bindings[0].match).toEqual({ channel: 'telegram', accountId: 'work', peer: { kind: 'group', id: 'dev-team' } });

    const list = await cli('agents', 'list', '--bindings');
    expect(list.stdout).toContain('coding  model=echo/default  💻 代码助手');
    expect(list.stdout).toContain('binding [0]: {"channel":"telegram","accountId":"work","peer":{"kind":"group","id":"dev-team"}}');

    const del = await cli('agents', 'delete', 'coding');
    expect(del.code).toBe(0);
    await waitFor('coding removed', async () => (await request(gw.url).get('/admin/agents/coding')).status === 404, 4000);
    expect(await fs.readFile(gw.configPath, 'utf8')).toContain('// kept by the CLI');
  });

  it('adds an id starting with _ under the id the gateway and the admin API give it', async () => {
    const add = await cli('agents', 'add', '_ops');
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/added agent ops \(revision [0-9a-f]{12}\)/);
    expect(await fs.readFile(gw.configPath, 'utf8')).toContain('id: "ops"');
    await waitFor('ops in the gateway', async () => (await request(gw.url).get('/admin/agents/_ops')).body?.id === 'ops', 4000);
    const del = await cli('agents', 'delete', '_ops');
    expect(del.code).toBe(0);
    await waitFor('ops removed', async () => (await request(gw.url).get('/admin/agents/ops')).status === 404, 4000);
  });

  it('refuses invalid edits with exit 1, a message naming the problem, and an unchanged file', async () => {
    const before = await fs.readFile(gw.configPath, 'utf8');
    const dup = await cli('agents', 'add', 'MAIN');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('duplicate agent id "main"');
    const peer = await cli('agents', 'bind', 'main', '--channel', 'http', '--peer', 'nokind');
    expect(peer.code).toBe(1);
    expect(peer.stderr).toContain('--peer must look like kind:id');
    const missing = await cli('agents', 'delete', 'ghost');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('agent "ghost" is not defined');
    const noFields = await cli('agents', 'set-identity', 'main');
    expect(noFields.code).toBe(1);
    expect(await fs.readFile(gw.configPath, 'utf8')).toBe(before);
  });
});
