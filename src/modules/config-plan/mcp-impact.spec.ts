import { snapshotFrom } from '../../../test/support/config-snapshot';
import { mcpImpact } from './mcp-impact';

const snapshot = (p: { mainAllow: string[]; supportDeny?: string[]; servers: Record<string, unknown> }) =>
  snapshotFrom({
    agents: {
      list: [
        { id: 'main', tools: { allow: p.mainAllow } },
        { id: 'support', tools: { allow: ['mcp:*'], deny: p.supportDeny ?? [] } },
      ],
    },
    mcp: { servers: p.servers },
  });

const files = { command: 'mcp-server-filesystem', args: ['/srv/docs'], env: { TOKEN: 'files-secret-value' } };
const wiki = { url: 'https://wiki.example.com/mcp' };

describe('mcpImpact', () => {
  it('lists the tools each agent gains and loses through the runtime policy, by the tools a server lists', async () => {
    const before = await snapshot({ mainAllow: ['mcp:files:read_*'], servers: { files } });
    const after = await snapshot({ mainAllow: ['mcp:files:*'], supportDeny: ['mcp:files:write_file'], servers: { files } });
    const listed = ['read_file', 'read_text_file', 'write_file'];
    expect(mcpImpact(before, after, (s) => (s === 'files' ? listed : undefined))).toEqual({
      serversAdded: [],
      serversRemoved: [],
      serversChanged: [],
      agents: [
        { agentId: 'main', gained: ['mcp:files:write_file'], lost: [] },
        { agentId: 'support', gained: [], lost: ['mcp:files:write_file'] },
      ],
    });
  });

  it('counts a server not listed yet by its grants, and names the changed keys of a server, never their values', async () => {
    const before = await snapshot({ mainAllow: ['mcp:files:*'], servers: { files } });
    const after = await snapshot({
      mainAllow: ['mcp:files:*', 'mcp:wiki:search'],
      servers: { files: { ...files, env: { TOKEN: 'rotated-secret-value' } }, wiki },
    });
    const impact = mcpImpact(before, after, () => undefined);
    expect(impact).toEqual({
      serversAdded: ['wiki'],
      serversRemoved: [],
      serversChanged: [{ name: 'files', keys: ['env'] }],
      agents: [
        { agentId: 'main', gained: ['mcp:wiki:search'], lost: [] },
        { agentId: 'support', gained: ['mcp:wiki:*'], lost: [] },
      ],
    });
    expect(JSON.stringify(impact)).not.toContain('secret-value');
  });

  it('a removed or disabled server takes its tools from every agent that had them', async () => {
    const before = await snapshot({ mainAllow: ['mcp:files:*'], servers: { files, wiki } });
    const after = await snapshot({ mainAllow: ['mcp:files:*'], servers: { files: { ...files, enabled: false } } });
    expect(mcpImpact(before, after, (s) => (s === 'files' ? ['read_file'] : undefined))).toEqual({
      serversAdded: [],
      serversRemoved: ['wiki'],
      serversChanged: [{ name: 'files', keys: ['enabled'] }],
      agents: [
        { agentId: 'main', gained: [], lost: ['mcp:files:read_file'] },
        { agentId: 'support', gained: [], lost: ['mcp:files:read_file', 'mcp:wiki:*'] },
      ],
    });
  });

  it("counts grants to the servers plugins registered; a name the candidate's mcp.servers takes is the config's", async () => {
    const pluginWiki = { ...(await snapshot({ mainAllow: [], servers: { wiki } })).config.mcp.servers.wiki, url: 'http://10.0.0.9/mcp' };
    const before = await snapshot({ mainAllow: [], supportDeny: ['*'], servers: {} });
    const after = await snapshot({ mainAllow: ['mcp:wiki:search'], supportDeny: ['*'], servers: {} });
    expect(mcpImpact(before, after, () => undefined, [pluginWiki]).agents).toEqual([
      { agentId: 'main', gained: ['mcp:wiki:search'], lost: [] },
    ]);
    // Without the plugin's server the same change grants nothing that exists.
    expect(mcpImpact(before, after, () => undefined).agents).toEqual([]);
    const taken = await snapshot({ mainAllow: ['mcp:wiki:search'], supportDeny: ['*'], servers: { wiki: { ...wiki, enabled: false } } });
    expect(mcpImpact(after, taken, () => undefined, [pluginWiki]).agents).toEqual([
      { agentId: 'main', gained: [], lost: ['mcp:wiki:search'] },
    ]);
  });
});
