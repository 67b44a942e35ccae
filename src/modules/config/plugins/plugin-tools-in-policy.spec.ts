import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RuntimeSnapshot } from '../config.types';
import { loadConfig } from '../pipeline/load-config';

/**
 * A tool policy may name the tools of the plugins the config enables (their manifests' `contracts.tools`): no
 * "not provided" warning for them, and `group:plugins` stands for them. A plugin that is not enabled provides
 * nothing, so its tools are still warned about. Real plugin directories, the whole load pipeline; no plugin code runs.
 */
describe('plugin tools in tool policies', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-plugin-tools-'));
    const plugin = path.join(dir, 'plugins', 'weather');
    await fs.mkdir(plugin, { recursive: true });
    const manifest = {
      id: 'weather',
      configSchema: { type: 'object', additionalProperties: false, properties: {} },
      // web_search is a name OpenClaw documents and clawgate has no tool for: a plugin may provide it.
      contracts: { tools: ['get_weather', 'web_search'] },
    };
    await fs.writeFile(path.join(plugin, 'clawgate.plugin.json'), JSON.stringify(manifest));
    await fs.writeFile(path.join(plugin, 'index.js'), 'module.exports = { register() {} };\n');
    await fs.chmod(plugin, 0o755);
    await fs.chmod(path.join(plugin, 'index.js'), 0o644);
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  async function load(enabled: boolean, tools: string): Promise<RuntimeSnapshot> {
    const configPath = path.join(dir, 'openclaw.json');
    await fs.writeFile(
      configPath,
      `{
        agents: { list: [{ id: "main", ${tools} }] },
        plugins: { load: { paths: ["./plugins"] }, entries: { weather: { enabled: ${enabled} } } },
      }`,
    );
    const result = await loadConfig({ configPath, stateDir: path.join(dir, 'state'), homeDir: dir, env: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.snapshot;
  }
  const notProvided = (snapshot: RuntimeSnapshot) =>
    snapshot.warnings.filter((w) => w.message.startsWith('tools not provided by this gateway')).map((w) => `${w.path}: ${w.message}`);

  it("does not warn about an enabled plugin's tools in an agent's allow list", async () => {
    const snapshot = await load(true, 'tools: { allow: ["get_weather", "sessions_list"] }');
    expect(snapshot.plugins.get('weather')?.state).toBe('enabled');
    expect(notProvided(snapshot)).toEqual([]);
    expect(snapshot.agentsById.get('main')?.tools.allow).toEqual(['get_weather', 'sessions_list']);
  });

  it('warns about the same name when the plugin is disabled', async () => {
    const snapshot = await load(false, 'tools: { allow: ["get_weather", "sessions_list"] }');
    expect(snapshot.plugins.get('weather')?.state).toBe('disabled');
    expect(notProvided(snapshot)).toEqual(['agents.list[0].tools.allow: tools not provided by this gateway are ignored: "get_weather"']);
  });

  it("keeps an OpenClaw tool name an enabled plugin provides in the agent's tools, and expands group:plugins", async () => {
    const snapshot = await load(true, 'tools: { profile: "minimal", alsoAllow: ["web_search", "group:plugins"] }');
    expect(notProvided(snapshot)).toEqual([]);
    expect(snapshot.agentsById.get('main')?.tools.allow).toEqual(['get_weather', 'session_status', 'web_search']);
  });

  it('drops and warns about that OpenClaw tool name while the plugin is disabled', async () => {
    const snapshot = await load(false, 'tools: { profile: "minimal", alsoAllow: ["web_search", "group:plugins"] }');
    expect(notProvided(snapshot)).toEqual(['agents.list[0].tools.alsoAllow: tools not provided by this gateway are ignored: "web_search"']);
    expect(snapshot.agentsById.get('main')?.tools.allow).toEqual(['session_status']);
  });
});
