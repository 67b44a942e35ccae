import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { a2aRpc } from '../support/a2a-rpc';
import { API_CLIENT } from '../support/admin-client';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { greetingManifest, writePluginDir } from '../support/plugin-dirs';

/**
 * The config side of plugins on a running gateway (docs/plugins.md#the-catalog): plugin directories made
 * here, with real files and modes. A plugin whose manifest is missing or wrong, or that is not trusted, is
 * refused with a warning naming the file and the field or the reason, and the gateway runs; a wrong plugin
 * config is rejected like any other invalid config (dotted path, last good revision kept). Throughout, the
 * gateway keeps answering A2A and admin requests.
 */

const PEER_TOKEN = 'plugins-e2e-peer-token-0001';

function configText(entries: string): string {
  return `{
  gateway: { reload: { mode: "off" } },
  agents: { list: [{ id: "main" }] },
  channels: { a2a: { enabled: true, peers: { hermes: { token: "${PEER_TOKEN}" } } } },
  plugins: {
    load: { paths: ["./plugins"] },
    entries: { ${entries} },
  },
}`;
}

interface Status {
  revision: string;
  warnings: Array<{ path: string; message: string }>;
  lastError: { errors: Array<{ path: string; message: string }> } | null;
}

async function status(gw: TestGateway): Promise<Status> {
  return (await request(gw.url).get('/admin/config/status').expect(200)).body as Status;
}

/** The gateway still serves: an A2A call answers and an admin read answers. */
async function expectServing(gw: TestGateway): Promise<void> {
  const answer = await a2aRpc(gw.url, PEER_TOKEN, 'ListTasks', {});
  expect(answer.error).toBeUndefined();
  await request(gw.url).get('/admin/agents').expect(200);
}

describe('plugins: manifests, trust and config (e2e)', () => {
  let gw: TestGateway;
  let outside: string;

  beforeAll(async () => {
    gw = await startTestGateway(configText('greeter: { config: { greeting: "hello" } }'), {
      beforeStart: async (stateDir) => {
        const plugins = path.join(path.dirname(stateDir), 'plugins');
        await writePluginDir(path.join(plugins, 'greeter'), { manifest: greetingManifest('greeter') });
        await writePluginDir(path.join(plugins, 'sticky'), { manifest: greetingManifest('sticky', { restartRequired: true }) });
        await writePluginDir(path.join(plugins, 'no-manifest'), {});
        const { configSchema: _dropped, ...noSchema } = greetingManifest('no-schema');
        await writePluginDir(path.join(plugins, 'no-schema'), { manifest: noSchema });
        await writePluginDir(path.join(plugins, 'bad-schema'), {
          manifest: greetingManifest('bad-schema', { configSchema: { type: 'object', properties: { n: { type: 'integr' } } } }),
        });
        // Escapes through a symlink: its entry points at a file outside its directory.
        outside = path.join(path.dirname(stateDir), 'outside.js');
        await fs.writeFile(outside, 'module.exports = { register() {} };\n', { mode: 0o644 });
        const escape = await writePluginDir(path.join(plugins, 'escape'), { manifest: greetingManifest('escape') });
        await fs.rm(path.join(escape, 'index.js'));
        await fs.symlink(outside, path.join(escape, 'index.js'));
        const open = await writePluginDir(path.join(plugins, 'open'), { manifest: greetingManifest('open') });
        await fs.chmod(open, 0o777);
        // Installed in the state dir under one id, its manifest says another.
        await writePluginDir(path.join(stateDir, 'extensions', 'mismatch'), { manifest: greetingManifest('other-id') });
      },
    });
  });
  afterAll(() => gw?.stop());

  it('starts, refuses each bad plugin with a warning that names the file and the field or the reason, and serves', async () => {
    const { warnings, lastError } = await status(gw);
    expect(lastError).toBeNull();
    const refusals = warnings.filter((w) => w.message.includes('is refused')).map((w) => w.message);
    const plugins = path.join(gw.dir, 'plugins');
    expect(refusals).toEqual([
      expect.stringMatching(
        /^plugin "bad-schema" .* is refused: .*bad-schema\/clawgate\.plugin\.json: configSchema: not a valid JSON Schema \(schema is invalid: data\/properties\/n\/type must be equal to one of the allowed values/,
      ),
      expect.stringMatching(
        /^plugin "escape" .* is refused: not trusted: its entry .*escape\/index\.js leaves the plugin's directory through a symlink \(to .*outside\.js\)$/,
      ),
      `plugin "no-manifest" (${path.join(plugins, 'no-manifest')}) is refused: no clawgate.plugin.json or openclaw.plugin.json in ${path.join(plugins, 'no-manifest')}`,
      expect.stringMatching(/^plugin "no-schema" .* is refused: .*no-schema\/clawgate\.plugin\.json: configSchema: is required$/),
      expect.stringMatching(
        /^plugin "open" .* is refused: not trusted: its directory .*\/open is writable by its group \(mode 777\); run chmod go-w on it$/,
      ),
      expect.stringMatching(
        /^plugin "mismatch" .* is refused: .*clawgate\.plugin\.json: id: "other-id" does not match its directory .*extensions\/mismatch/,
      ),
    ]);
    await expectServing(gw);
  });

  it('rejects a wrong plugin config with its dotted path, keeps the last good revision and keeps serving', async () => {
    const before = await status(gw);
    await gw.writeConfig(configText('greeter: { config: { greeting: 42, level: "medium", gretting: "hi" } }'));
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(422);
    const after = await status(gw);
    expect(after.revision).toBe(before.revision);
    expect(after.lastError?.errors).toEqual([
      { path: 'plugins.entries.greeter.config.gretting', message: 'unknown key (did you mean "greeting"?)' },
      { path: 'plugins.entries.greeter.config.greeting', message: 'expected string (got a number)' },
      { path: 'plugins.entries.greeter.config.level', message: 'must be one of: "low", "high" (got "medium")' },
    ]);
    await expectServing(gw);

    // Put right, it applies: a new revision.
    await gw.writeConfig(configText('greeter: { config: { greeting: "hi", level: "high" } }'));
    expect((await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200)).body.status).toBe('applied');
    expect((await status(gw)).lastError).toBeNull();
  });

  it('never shows a secret the manifest declares, in the config or in a message', async () => {
    const secret = 'greeter-secret-value-0001';
    await gw.writeConfig(configText(`greeter: { config: { signingKey: "${secret}" } }`));
    expect((await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200)).body.status).toBe('applied');
    const res = await request(gw.url).get('/admin/config').expect(200);
    expect(res.body.document.plugins.entries.greeter.config.signingKey).toBe('[redacted]');
    expect(res.text).not.toContain(secret);

    // A wrong type at a secret key: the message does not quote it.
    await gw.writeConfig(configText(`greeter: { config: { signingKey: ["${secret}"] } }`));
    const rejected = await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(422);
    expect(rejected.text).not.toContain(secret);
    const { lastError } = await status(gw);
    expect(lastError?.errors).toEqual([{ path: 'plugins.entries.greeter.config.signingKey', message: 'expected string (got an array)' }]);
  });

  it('lists a plugin whose manifest needs a restart in pendingRestart while its config differs from the start', async () => {
    await gw.writeConfig(configText('greeter: { config: { greeting: "changed" } }, sticky: { config: { greeting: "changed" } }'));
    expect((await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200)).body.pendingRestart).toEqual([
      'plugins.entries.sticky',
    ]);
    expect(((await status(gw)) as Status & { pendingRestart: string[] }).pendingRestart).toEqual(['plugins.entries.sticky']);
    // Back to what it started with (no settings): nothing waits any more, whatever the hot plugin has.
    await gw.writeConfig(configText('greeter: { config: { greeting: "again" } }'));
    expect((await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200)).body.pendingRestart).toEqual([]);
  });

  it('names a plugin entry that no plugin answers, with did-you-mean, as a warning', async () => {
    await gw.writeConfig(configText('greeter: {}, greeterr: { enabled: true }'));
    expect((await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200)).body.status).toBe('applied');
    expect((await status(gw)).warnings).toContainEqual({
      path: 'plugins.entries.greeterr',
      message:
        'no plugin "greeterr" was found (plugins.load.paths, the state dir\'s extensions/, bundled); did you mean "greeter"?: its settings are not checked and it does not run',
    });
    await expectServing(gw);
  });
});
