import { createServer } from 'node:net';
import request from 'supertest';
import { CliBuild, runCli, transpileCli } from '../fixtures/cli-runner';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/** `clawgate gateway status|reload` as a real process against a running gateway's admin API. */

const VIEWER = 'viewer-token-3b9d1f7a2c';
const OPERATOR = 'operator-token-8e4a6c0d1f';
const BASE = `{
  gateway: { admin: { tokens: [
    { name: "dash", token: "\${VIEWER_TOKEN}", role: "viewer" },
    { name: "ci", token: "\${OPERATOR_TOKEN}", role: "operator" },
  ] } },
  agents: { list: [{ id: "main" }] },
}`;

let build: CliBuild;
let gw: TestGateway;
beforeAll(async () => {
  build = await transpileCli();
  gw = await startTestGateway(BASE, { env: { VIEWER_TOKEN: VIEWER, OPERATOR_TOKEN: OPERATOR } });
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await build?.remove();
});

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(build.cliJs, args, { HOME: gw.dir, CLAWGATE_URL: gw.url, ...env });

describe('clawgate gateway status', () => {
  it('shows the revision the gateway serves, as text and as one JSON document', async () => {
    const revision = (await request(gw.url).get('/readyz')).body.revision;
    const text = await cli(['gateway', 'status'], { CLAWGATE_TOKEN: VIEWER });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`gateway ${gw.url}: revision ${revision}, loaded `);
    expect(text.stdout).toContain(`config: ${gw.configPath}\npending restart: none\n`);
    const json = await cli(['gateway', 'status', '--json'], { CLAWGATE_TOKEN: VIEWER });
    expect(JSON.parse(json.stdout)).toMatchObject({ url: gw.url, revision, configPath: gw.configPath, lastError: null });
  });

  it('names the URL when nothing answers there, and refuses a URL that is not http(s)', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
    const down = await cli(['gateway', 'status'], { CLAWGATE_URL: `http://127.0.0.1:${port}/` });
    expect(down.code).toBe(1);
    expect(down.stderr).toBe(
      `clawgate: cannot reach the gateway at http://127.0.0.1:${port} (ECONNREFUSED); is it running? (set CLAWGATE_URL to its address)\n`,
    );
    const bad = await cli(['gateway', 'status'], { CLAWGATE_URL: 'file:///etc/passwd' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('CLAWGATE_URL must be an http(s) URL such as http://127.0.0.1:18789 (got "file:///etc/passwd")');
  });

  it('says what the gateway answered to a missing or wrong token, without echoing the token', async () => {
    const none = await cli(['gateway', 'status']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`${gw.url}/admin/config/status answered HTTP 401: authentication required`);
    const wrong = await cli(['gateway', 'status'], { CLAWGATE_TOKEN: 'not-a-token-1234' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('answered HTTP 401');
    expect(wrong.stderr).not.toContain('not-a-token-1234');
  });
});

describe('clawgate gateway reload', () => {
  it('needs the operator role, rejects an invalid file with exit 1 and its errors, then applies the fixed file', async () => {
    const viewer = await cli(['gateway', 'reload'], { CLAWGATE_TOKEN: VIEWER });
    expect(viewer.code).toBe(1);
    expect(viewer.stderr).toContain(`${gw.url}/admin/config/reload answered HTTP 403`);

    const serving = (await request(gw.url).get('/readyz')).body.revision;
    await gw.writeConfig(BASE.replace('{ id: "main" }', '{ id: "main", modle: "echo/x" }'));
    const rejected = await cli(['gateway', 'reload'], { CLAWGATE_TOKEN: OPERATOR });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain(`clawgate: reload rejected by ${gw.url}: 1 error in the config; still serving revision ${serving}`);
    expect(rejected.stderr).toContain('  agents.list[0].modle: unknown key (did you mean "model"?)');
    const status = await cli(['gateway', 'status'], { CLAWGATE_TOKEN: OPERATOR });
    expect(status.stdout).toContain('last rejected change (');
    expect(status.stdout).toContain('  agents.list[0].modle: unknown key');

    await gw.writeConfig(BASE.replace('{ id: "main" }', '{ id: "main" }, { id: "second" }'));
    const applied = await cli(['gateway', 'reload', '--json'], { CLAWGATE_TOKEN: OPERATOR });
    expect(applied.code).toBe(0);
    // The file watcher may have applied the fix first; then this reload finds nothing new.
    const outcome = JSON.parse(applied.stdout);
    expect(['applied', 'unchanged']).toContain(outcome.status);
    await waitFor('second agent served', async () => (await request(gw.url).get('/readyz')).body.revision === outcome.revision, 3000);
  });
});
