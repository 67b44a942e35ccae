import { agentMayUseServer } from './mcp-server-grants';

const agent = (allow: string[], deny: string[] = []) => ({ tools: { allow, deny } });

describe('agentMayUseServer', () => {
  it('is granted by an mcp: entry naming the server, a glob matching it, or mcp:*', () => {
    expect(agentMayUseServer(agent(['mcp:files:*']), 'files')).toBe(true);
    expect(agentMayUseServer(agent(['mcp:files:read_text_file']), 'files')).toBe(true);
    expect(agentMayUseServer(agent(['mcp:fi*:read']), 'files')).toBe(true);
    expect(agentMayUseServer(agent(['mcp:*']), 'files')).toBe(true);
  });

  it('is not granted by other servers, non-MCP entries, an empty allow list, or deny *', () => {
    expect(agentMayUseServer(agent(['mcp:github:*']), 'files')).toBe(false);
    expect(agentMayUseServer(agent(['mcp:filesystem:*']), 'files')).toBe(false);
    expect(agentMayUseServer(agent(['read', 'exec']), 'files')).toBe(false);
    expect(agentMayUseServer(agent([]), 'files')).toBe(false);
    expect(agentMayUseServer(agent(['mcp:files:*'], ['*']), 'files')).toBe(false);
  });
});
