import { requiresApproval } from './tool-approval-match';

const agent = (tools: string[]) => ({ approvals: { tools, timeoutMs: 1000 } });

describe('requiresApproval', () => {
  it('matches exact names and * patterns, MCP tools by their policy name', () => {
    const a = agent(['session_status', 'mcp:files:*', 'sessions_s*']);
    expect(requiresApproval(a, 'session_status')).toBe(true);
    expect(requiresApproval(a, 'mcp:files:delete')).toBe(true);
    expect(requiresApproval(a, 'mcp:mail:send')).toBe(false);
    expect(requiresApproval(a, 'sessions_send')).toBe(true);
    expect(requiresApproval(a, 'sessions_spawn')).toBe(true);
    expect(requiresApproval(a, 'sessions_list')).toBe(false);
    expect(requiresApproval(a, 'memory_search')).toBe(false);
  });

  it('matches nothing with an empty list, everything with *', () => {
    expect(requiresApproval(agent([]), 'a2a_send')).toBe(false);
    expect(requiresApproval(agent(['*']), 'a2a_send')).toBe(true);
  });

  it('treats other glob characters as plain text', () => {
    const a = agent(['tool?', '[ab]']);
    expect(requiresApproval(a, 'tools')).toBe(false);
    expect(requiresApproval(a, 'tool?')).toBe(true);
    expect(requiresApproval(a, 'a')).toBe(false);
  });
});
