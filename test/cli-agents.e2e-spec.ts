import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { startTestGateway, TestGateway, waitFor } from './support/gateway-harness';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..');

/** Runs the real CLI entry point (TypeScript sources, no build needed). */
async function clawgate(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'src/cli.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, TS_NODE_PROJECT: path.join(ROOT, 'tsconfig.json') },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('clawgate agents ... (CLI against a running gateway)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(`{
  // kept by the CLI
  agents: { list: [{ id: "main" }] },
}
`);
  });
  afterAll(() => gw.stop());

  const cli = (...args: string[]) => clawgate([...args, '--config', gw.configPath, '--state-dir', gw.stateDir]);

  it('adds, names, binds and deletes an agent; the running gateway applies each edit by hot reload', async () => {
    const add = await cli('agents', 'add', 'coding', '--model', 'echo/default', '--name', 'Coder');
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/added agent coding \(revision [0-9a-f]{12}\)/);
    await waitFor('coding in the gateway', async () => (await request(gw.url).get('/admin/agents/coding')).status === 200, 4000);

    const identity = await cli('agents', 'set-identity', '--name', '代码助手', '--emoji', '💻', 'coding');
    expect(identity.code).toBe(0);
    const bind = await cli('agents', 'bind', 'coding', '--channel', 'telegram', '--account', 'work', '--peer', 'group:dev-team');
    expect(bind.code).toBe(0);
    const agent = await waitFor('identity and binding applied', async () => {
      const body = (await request(gw.url).get('/admin/agents/coding')).body;
      return body.identity?.emoji === '💻' && body.bindings?.length === 1 ? body : undefined;
    }, 4000);
    expect(agent.bindings[0].match).toEqual({ channel: 'telegram', accountId: 'work', peer: { kind: 'group', id: 'dev-team' } });

    const list = await cli('agents', 'list', '--bindings');
    expect(list.stdout).toContain('coding  model=echo/default  💻 代码助手');
    expect(list.stdout).toContain('binding [0]: {"channel":"telegram","accountId":"work","peer":{"kind":"group","id":"dev-team"}}');

    const del = await cli('agents', 'delete', 'coding');
    expect(del.code).toBe(0);
    await waitFor('coding removed', async () => (await request(gw.url).get('/admin/agents/coding')).status === 404, 4000);
    expect(await fs.readFile(gw.configPath, 'utf8')).toContain('// kept by the CLI');
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
