import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../pipeline/load-config';
import { pluginMcpServerSettings } from './plugin-mcp-server';

/** What `api.registerMcpServer(name, config)` is checked by: the schema and normalization of `mcp.servers.<name>`. */
describe('pluginMcpServerSettings', () => {
  const ROOT = '/srv/plugins/wiki';
  const issues = (name: string, config: unknown) => {
    const result = pluginMcpServerSettings(name, config, ROOT);
    return result.ok ? [] : result.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  };

  it('fills the defaults of mcp.servers; cwd is the plugin directory, or relative to it', () => {
    const stdio = pluginMcpServerSettings('wiki', { command: 'node', args: ['server.js'], env: { TOKEN: 'abc' } }, ROOT);
    expect(stdio).toEqual({
      ok: true,
      settings: expect.objectContaining({
        name: 'wiki',
        enabled: true,
        transport: 'stdio',
        command: 'node',
        args: ['server.js'],
        env: { TOKEN: 'abc' },
        cwd: ROOT,
        startup: 'lazy',
        headers: {},
      }),
    });
    const nested = pluginMcpServerSettings('wiki', { command: 'node', cwd: 'bin' }, ROOT);
    expect(nested.ok && nested.settings.cwd).toBe(path.join(ROOT, 'bin'));
    const http = pluginMcpServerSettings('remote', { url: 'http://127.0.0.1:4000/mcp', startup: 'boot' }, ROOT);
    expect(http).toEqual({
      ok: true,
      settings: expect.objectContaining({ transport: 'streamable-http', url: 'http://127.0.0.1:4000/mcp', startup: 'boot' }),
    });
  });

  it('names the key that is wrong', () => {
    expect(issues('wiki', {})).toEqual([
      'url: is required for a streamable-http server (its MCP endpoint), or set command for a stdio server',
    ]);
    expect(issues('wiki', { url: 'not a url' })).toEqual([expect.stringMatching(/^url: must be a URL address/)]);
    expect(issues('wiki', { command: 'node', args: ['ok', 42] })).toEqual([expect.stringMatching(/^args: .*must be a string/)]);
    expect(issues('wiki', { command: 'node', url: 'http://127.0.0.1/mcp' })).toEqual([
      'url: is for HTTP servers; a stdio server has command, not url',
    ]);
    expect(issues('wiki', { comand: 'node' })).toEqual([
      expect.stringMatching(/^comand: unknown key \(did you mean "command"\?\)/),
    ]);
    expect(issues('wiki', 'node server.js')).toEqual(['the config must be an object (command, args, env, cwd or url, headers, …)']);
    expect(issues('a__b', { command: 'node' })).toEqual([expect.stringMatching(/^the name must be 1-32 letters/)]);
  });

  it('never quotes a secret value it refuses', () => {
    const text = issues('wiki', { command: 'node', env: { TOKEN: 42 }, headers: 'Bearer very-secret-value' }).join('\n');
    expect(text).toMatch(/env/);
    expect(text).not.toContain('very-secret-value');
  });
});

describe('a tool policy naming the MCP server of an enabled plugin', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-plugin-mcp-'));
    const plugin = path.join(dir, 'plugins', 'wiki-tools');
    await fs.mkdir(plugin, { recursive: true });
    const manifest = { id: 'wiki-tools', configSchema: { type: 'object' }, contracts: { mcpServers: ['wiki'] } };
    await fs.writeFile(path.join(plugin, 'clawgate.plugin.json'), JSON.stringify(manifest));
    await fs.writeFile(path.join(plugin, 'index.js'), 'module.exports = { register() {} };\n');
    await fs.chmod(plugin, 0o755);
    await fs.chmod(path.join(plugin, 'index.js'), 0o644);
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const unknownServerWarnings = async (enabled: boolean) => {
    const configPath = path.join(dir, 'openclaw.json');
    await fs.writeFile(
      configPath,
      `{
        agents: { list: [{ id: "main", tools: { allow: ["mcp:wiki:*"] } }] },
        plugins: { load: { paths: ["./plugins"] }, entries: { "wiki-tools": { enabled: ${enabled} } } },
      }`,
    );
    const result = await loadConfig({ configPath, stateDir: path.join(dir, 'state'), homeDir: dir, env: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.snapshot.warnings.filter((w) => w.path === 'mcp.servers').map((w) => w.message);
  };

  it('is not warned about while the plugin is enabled (its manifest declares the server)', async () => {
    expect(await unknownServerWarnings(true)).toEqual([]);
  });

  it('is warned about while the plugin is disabled', async () => {
    expect(await unknownServerWarnings(false)).toEqual(['tools.allow/deny name MCP server "wiki", which mcp.servers does not have']);
  });
});
