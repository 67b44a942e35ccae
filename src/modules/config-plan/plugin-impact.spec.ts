import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig, type RuntimeSnapshot } from '../config';
import { pluginImpact } from './plugin-impact';

/** The plugins part of a plan, between catalogs the real pipeline builds from plugin directories made here. */
describe('pluginImpact', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-plugin-impact-'));
    for (const [id, restartRequired] of [
      ['weather', false],
      ['ledger', true],
    ] as const) {
      const root = path.join(dir, 'plugins', id);
      await fs.mkdir(root, { recursive: true });
      const configSchema = {
        type: 'object',
        additionalProperties: false,
        properties: { units: { type: 'string' }, apiKey: { type: 'string' } },
      };
      await fs.writeFile(
        path.join(root, 'clawgate.plugin.json'),
        JSON.stringify({ id, configSchema, restartRequired, secrets: ['apiKey'] }),
      );
      await fs.writeFile(path.join(root, 'index.js'), 'module.exports = { register() {} };\n');
      await fs.chmod(root, 0o755);
      await fs.chmod(path.join(root, 'index.js'), 0o644);
    }
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  async function snapshot(entries: string): Promise<RuntimeSnapshot> {
    const configPath = path.join(dir, 'openclaw.json');
    await fs.writeFile(
      configPath,
      `{ agents: { list: [{ id: "main" }] }, plugins: { load: { paths: ["./plugins"] }, entries: { ${entries} } } }`,
    );
    const result = await loadConfig({ configPath, stateDir: path.join(dir, 'state'), homeDir: dir, env: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.snapshot;
  }

  it('lists the plugins disabled and enabled, with why', async () => {
    const before = await snapshot('weather: { config: { units: "metric" } }');
    const after = await snapshot('weather: { enabled: false }, ledger: { enabled: false }');
    expect(pluginImpact(before.plugins, after.plugins)).toEqual({
      stateChanged: [
        { id: 'ledger', before: 'enabled', after: 'disabled', reason: 'plugins.entries.ledger.enabled is false' },
        { id: 'weather', before: 'enabled', after: 'disabled', reason: 'plugins.entries.weather.enabled is false' },
      ],
      configChanged: [],
    });
    expect(pluginImpact(after.plugins, before.plugins).stateChanged.map((c) => [c.id, c.after, c.reason])).toEqual([
      ['ledger', 'enabled', null],
      ['weather', 'enabled', null],
    ]);
  });

  it('lists a changed config by name only, and says when it waits for a restart', async () => {
    const before = await snapshot('weather: { config: { units: "metric", apiKey: "wk-0001" } }, ledger: { config: { units: "eur" } }');
    const after = await snapshot('weather: { config: { units: "imperial", apiKey: "wk-0002" } }, ledger: { config: { units: "usd" } }');
    const impact = pluginImpact(before.plugins, after.plugins);
    expect(impact).toEqual({
      stateChanged: [],
      configChanged: [
        { id: 'ledger', restartRequired: true },
        { id: 'weather', restartRequired: false },
      ],
    });
    expect(JSON.stringify(impact)).not.toContain('wk-000');
    expect(pluginImpact(before.plugins, before.plugins)).toEqual({ stateChanged: [], configChanged: [] });
  });
});
