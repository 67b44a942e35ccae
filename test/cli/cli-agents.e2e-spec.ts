import { promises as fs } from 'node:fs';
import request from 'supertest';
import * as path from 'node:path';
import { CliBuild, REPO_ROOT, runCli, transpileCli } from '../fixtures/cli-runner';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

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
  }, 120_000);
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
    expect(add.stdout).toMatch(/added agent coding \(revision [0-9a-f]{12}; /);
    await waitFor('coding in the gateway', async () => (await request(gw.url).get('/admin/agents/coding')).status === 200, 4000);

    const identity = await cli('agents', 'set-identity', '--name', '代码助手', '--emoji', '💻', 'coding');
    expect(identity.code).toBe(0);
    const bind = await cli('agents', 'bind', 'coding', '--channel', 'telegram', '--account', 'work', '--peer', 'group:dev-team');
    expect(bind.code).toBe(0);
    // The loader's warning for a channel without an adapter here, shown once, for the binding just added.
    expect(bind.stderr).toBe(
      'warning: bindings[0].match.channel: channel "telegram" is provided by plugin telegram, which does not run (activated by its ' +
        'channel: none of channels.telegram is configured); the binding is kept but receives nothing until it does\n',
    );
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

    const json = await cli('agents', 'list', '--json');
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ configPath: gw.configPath, stateDir: gw.stateDir });
    expect(doc.agents.find((a: { id: string }) => a.id === 'coding')).toMatchObject({
      model: 'echo/default',
      default: false,
      identity: { name: '代码助手', emoji: '💻' },
      bindings: [{ index: 0, match: { channel: 'telegram', accountId: 'work', peer: { kind: 'group', id: 'dev-team' } } }],
    });

    const unbind = await cli('agents', 'unbind', 'coding', '--channel', 'telegram', '--account', 'work', '--peer', 'group:dev-team');
    expect(unbind.code).toBe(0);
    expect(unbind.stdout).toMatch(/^unbound coding from .*"telegram".* \(revision [0-9a-f]{12}; /);
    expect(unbind.stderr).toBe('');
    await waitFor('binding removed', async () => (await request(gw.url).get('/admin/agents/coding')).body?.bindings?.length === 0, 4000);

    const del = await cli('agents', 'delete', 'coding');
    expect(del.code).toBe(0);
    await waitFor('coding removed', async () => (await request(gw.url).get('/admin/agents/coding')).status === 404, 4000);
    expect(await fs.readFile(gw.configPath, 'utf8')).toContain('// kept by the CLI');
  });

  it('names the config and state dir of every edit, and the revision the gateway running there applied', async () => {
    const add = await cli('agents', 'add', 'named');
    expect(add.code).toBe(0);
    const lines = add.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^added agent named \\(revision [0-9a-f]{12}; config ${escape(gw.configPath)}, state dir ${escape(gw.stateDir)}\\)$`),
    );
    // The gateway (in this process, holding gw.stateDir) applied the edit: its revision, the one status shows.
    const status = await waitFor(
      'named applied',
      async () => {
        const body = (await request(gw.url).get('/admin/config/status')).body;
        return (await request(gw.url).get('/admin/agents/named')).status === 200 ? body : undefined;
      },
      4000,
    );
    expect(lines[1]).toBe(`the gateway running on this state dir (pid ${process.pid}) applied it as revision ${status.revision}`);
    const history = (await request(gw.url).get('/admin/config/history?limit=1')).body.items[0];
    expect(history).toMatchObject({ revision: status.revision, source: 'cli' });
    expect((await cli('agents', 'delete', 'named')).code).toBe(0);
  }, 60_000);

  it('binds to a channel this gateway serves without a warning, and lists which config and state dir it used', async () => {
    const bind = await cli('agents', 'bind', 'main', '--channel', 'http', '--account', 'ops');
    expect(bind.code).toBe(0);
    expect(bind.stderr).toBe('');
    const list = await cli('agents', 'list', '--bindings');
    expect(list.stdout.split('\n')[0]).toBe(`config ${gw.configPath}, state dir ${gw.stateDir}`);
    expect(list.stdout).toContain('binding [0]: {"channel":"http","accountId":"ops"}');
    expect((await cli('agents', 'unbind', 'main', '--channel', 'http', '--account', 'ops')).code).toBe(0);
  });

  it('prints the package version for --version', async () => {
    const { version } = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    const run = await runCli(build.cliJs, ['--version'], { HOME: gw.dir });
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('adds an id starting with _ under the id the gateway and the admin API give it', async () => {
    const add = await cli('agents', 'add', '_ops');
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/added agent ops \(revision [0-9a-f]{12}; /);
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
    // Said once, in the user's terms: not the writer's duplicate-id error at a list index the user never typed.
    expect(dup.stderr).toBe(`clawgate: agent main already exists (config ${gw.configPath}, state dir ${gw.stateDir}); nothing written\n`);
    const peer = await cli('agents', 'bind', 'main', '--channel', 'http', '--peer', 'nokind');
    expect(peer.code).toBe(1);
    expect(peer.stderr).toContain('--peer must look like kind:id');
    const missing = await cli('agents', 'delete', 'ghost');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('agent "ghost" is not defined');
    const noFields = await cli('agents', 'set-identity', 'main');
    expect(noFields.code).toBe(1);
    const ghost = await cli('agents', 'unbind', 'ghost', '--channel', 'http');
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toContain('agent "ghost" is not defined');
    const notBound = await cli('agents', 'unbind', 'main', '--channel', 'http', '--account', 'nope');
    expect(notBound.code).toBe(1);
    expect(notBound.stderr).toContain(
      'agent "main" has no binding {"channel":"http","accountId":"nope"} in openclaw.json; its bindings: none',
    );
    const noChannel = await cli('agents', 'unbind', 'main');
    expect(noChannel.code).not.toBe(0);
    expect(noChannel.stderr).toContain("required option '--channel <channel>' not specified");
    expect(await fs.readFile(gw.configPath, 'utf8')).toBe(before);
  });
});

describe('clawgate agents ... on the state dir of a gateway whose environment differs from the shell', () => {
  let gw: TestGateway;
  let build: CliBuild;
  beforeAll(async () => {
    build = await transpileCli();
    // As under `npm start`: the gateway has the token's variable, the shell running the CLI does not.
    gw = await startTestGateway(
      `{
  agents: { list: [{ id: "main" }] },
  channels: { http: { enabled: true, accounts: { demo: { token: "\${CLI_DEMO_HTTP_TOKEN}" } } } },
}
`,
      { env: { CLI_DEMO_HTTP_TOKEN: 'only-the-gateway-has-this' } },
    );
  }, 120_000);
  afterAll(async () => {
    await gw.stop();
    await build.remove();
  });

  it("prints the revision the gateway applied, not only the shell's, so status, history and rollback know it", async () => {
    const env = { HOME: gw.dir, OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_CONFIG_PATH: gw.configPath };
    const add = await runCli(build.cliJs, ['agents', 'add', 'coding', '--model', 'echo/default'], env);
    expect(add.code).toBe(0);
    const [done, applied] = add.stdout.trimEnd().split('\n');
    const shellRevision = /\(revision ([0-9a-f]{12});/.exec(done)?.[1];
    const gatewayRevision = /applied it as revision ([0-9a-f]{12})$/.exec(applied ?? '')?.[1];
    expect(gatewayRevision).toBeDefined();
    expect(gatewayRevision).not.toBe(shellRevision);
    expect((await request(gw.url).get('/admin/config/status')).body.revision).toBe(gatewayRevision);
    expect((await request(gw.url).get('/admin/config/history?limit=1')).body.items[0]).toMatchObject({
      revision: gatewayRevision,
      source: 'cli',
    });
    // A rollback to it is found: it is a revision of the gateway's history.
    await request(gw.url).get(`/admin/config/history/${gatewayRevision}`).expect(200);
    expect(add.stdout + add.stderr).not.toContain('only-the-gateway-has-this');
  }, 60_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
