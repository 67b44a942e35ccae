// mcp.servers through the gateway's own loader: defaults, the transport decided, and each mistake an error naming the key.
import * as os from 'node:os';
import * as path from 'node:path';
import { formatConfigIssue } from '../../src/modules/config/pipeline/config-issue';
import { loadConfig } from '../../src/modules/config/pipeline/load-config';
import { snapshotFrom } from '../support/config-snapshot';

async function issuesOf(config: Record<string, unknown>): Promise<{ errors: string[]; warnings: string[] }> {
  const result = await loadConfig({
    configPath: path.join(os.tmpdir(), 'openclaw.json'),
    stateDir: '/nonexistent/clawgate-state',
    homeDir: '/nonexistent/home',
    env: {},
    rootText: JSON.stringify(config),
  });
  return {
    errors: result.ok ? [] : result.errors.map(formatConfigIssue),
    warnings: (result.ok ? result.warnings : []).map(formatConfigIssue),
  };
}

describe('mcp.servers in the config', () => {
  it('fills the defaults and decides the transport', async () => {
    const snapshot = await snapshotFrom({
      mcp: { servers: { files: { command: 'mcp-files', args: ['/srv'] }, docs: { url: 'https://mcp.example.com/mcp' } } },
    });
    expect(snapshot.config.mcp.servers.files).toEqual({
      name: 'files',
      enabled: true,
      transport: 'stdio',
      command: 'mcp-files',
      cwd: os.tmpdir(),
      args: ['/srv'],
      env: {},
      headers: {},
      startup: 'lazy',
      requestTimeoutMs: 60000,
      connectionTimeoutMs: 30000,
      maxOutputBytes: 262144,
      toolFilter: { exclude: [] },
    });
    expect(snapshot.config.mcp.servers.docs.transport).toBe('streamable-http');
  });

  it('keeps mcp: entries of tools.allow as written, also under an OpenClaw tool profile', async () => {
    const snapshot = await snapshotFrom({
      mcp: { servers: { files: { command: 'mcp-files' } } },
      agents: { list: [{ id: 'main', tools: { profile: 'minimal', alsoAllow: ['mcp:files:Read*'] } }] },
    });
    expect(snapshot.config.agents[0].tools.allow).toEqual(['session_status', 'mcp:files:Read*']);
  });

  it('a mistake is an error naming the key; a typo gets did-you-mean', async () => {
    const schema = (
      await issuesOf({
        mcp: { servers: { typo: { comand: 'x' }, 'bad name': { command: 'x' }, slow: { command: 'x', requestTimeoutMs: 'soon' } } },
      })
    ).errors.join('\n');
    expect(schema).toMatch(/mcp\.servers\.typo\.comand: unknown key \(did you mean "command"\?\)/);
    expect(schema).toContain('mcp.servers: invalid name "bad name"');
    expect(schema).toContain('mcp.servers.slow.requestTimeoutMs: must be an integer number');
    // Once every key is valid, a server must have command or url, not both.
    const shape = (
      await issuesOf({ mcp: { servers: { both: { command: 'x', url: 'https://example.com/mcp' }, none: { args: ['x'] } } } })
    ).errors.join('\n');
    expect(shape).toContain('mcp.servers.both.url: is for HTTP servers; a stdio server has command, not url');
    expect(shape).toContain(
      'mcp.servers.none.url: is required for a streamable-http server (its MCP endpoint), or set command for a stdio server',
    );
  });

  it('an agent entry naming a server mcp.servers lacks is a warning with did-you-mean', async () => {
    const { warnings } = await issuesOf({
      mcp: { servers: { files: { command: 'x' } } },
      agents: { list: [{ id: 'main', tools: { allow: ['mcp:fiels:*'] } }] },
    });
    expect(warnings.join('\n')).toContain(
      'tools.allow/deny name MCP server "fiels", which mcp.servers does not have (did you mean "files"?)',
    );
  });
});
