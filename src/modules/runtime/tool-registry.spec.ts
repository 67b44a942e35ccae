import { isToolAllowed, ToolRegistry } from './tool-registry';

const ctx = { sessionKey: 'agent:a:main', agentId: 'a', signal: new AbortController().signal };
const open = { tools: { allow: [], deny: [] } };

function registry(): ToolRegistry {
  const r = new ToolRegistry();
  r.register<{ text: string; n?: number }>({
    name: 'echo_tool',
    description: 'repeats',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string', minLength: 1 }, n: { type: 'integer', minimum: 0 } },
      required: ['text'],
      additionalProperties: false,
    },
    handler: async (_ctx, args) => ({ status: 'ok', text: args.text.repeat(args.n ?? 1) }),
  });
  r.register({
    name: 'thrower',
    description: 'fails',
    parameters: { type: 'object' },
    handler: async () => {
      throw new Error('disk on fire');
    },
  });
  return r;
}

describe('ToolRegistry', () => {
  it('runs a tool with valid arguments', async () => {
    await expect(registry().call(open, 'echo_tool', { text: 'ab', n: 2 }, ctx)).resolves.toEqual({ status: 'ok', text: 'abab' });
  });

  it.each([
    [{}, 'missing required argument "text"'],
    [{ text: 'x', extra: 1 }, 'unknown argument "extra"'],
    [{ text: 'x', n: -1 }, 'argument "n" must be >= 0'],
    [{ text: 5 }, 'argument "text" must be string'],
  ])('answers bad arguments %j with an error naming the argument', async (args, message) => {
    const result = await registry().call(open, 'echo_tool', args, ctx);
    expect(result.status).toBe('error');
    expect(result.error).toContain(message);
  });

  it('turns a throwing handler into an error result', async () => {
    await expect(registry().call(open, 'thrower', {}, ctx)).resolves.toEqual({ status: 'error', error: 'thrower failed: disk on fire' });
  });

  it('applies allow/deny (deny wins, empty allow = all) to listing and calling', async () => {
    const r = registry();
    expect(r.toolsFor({ tools: { allow: ['echo_tool'], deny: [] } }).map((t) => t.name)).toEqual(['echo_tool']);
    expect(r.toolsFor({ tools: { allow: [], deny: ['thrower'] } }).map((t) => t.name)).toEqual(['echo_tool']);
    expect(isToolAllowed({ tools: { allow: ['x'], deny: ['x'] } }, 'x')).toBe(false);
    const denied = await r.call({ tools: { allow: [], deny: ['echo_tool'] } }, 'echo_tool', { text: 'a' }, ctx);
    expect(denied).toEqual({ status: 'error', error: 'unknown tool "echo_tool"; available: thrower' });
  });

  it('refuses to register the same name twice', () => {
    const r = registry();
    expect(() => r.register({ name: 'thrower', description: '', parameters: {}, handler: async () => ({ status: 'ok' }) })).toThrow(
      'registered twice',
    );
  });
});

describe('isToolAllowed and MCP tools (mcp:<server>:<tool>)', () => {
  const agent = (allow: string[], deny: string[] = []) => ({ tools: { allow, deny } });

  it('offers an MCP tool only to an agent whose allow list has a matching mcp: entry', () => {
    expect(isToolAllowed(agent([]), 'mcp:files:read')).toBe(false);
    expect(isToolAllowed(agent(['mcp:files:*']), 'mcp:files:read')).toBe(true);
    expect(isToolAllowed(agent(['mcp:files:read']), 'mcp:files:write')).toBe(false);
    expect(isToolAllowed(agent(['mcp:*']), 'mcp:github:search')).toBe(true);
    expect(isToolAllowed(agent(['mcp:files:*'], ['mcp:files:write']), 'mcp:files:write')).toBe(false);
    expect(isToolAllowed(agent(['mcp:files:*'], ['*']), 'mcp:files:read')).toBe(false);
  });

  it('mcp: entries restrict no other tool; other names still do', () => {
    expect(isToolAllowed(agent(['mcp:files:*']), 'session_status')).toBe(true);
    expect(isToolAllowed(agent(['sessions_list', 'mcp:files:*']), 'session_status')).toBe(false);
    expect(isToolAllowed(agent(['sessions_list', 'mcp:files:*']), 'sessions_list')).toBe(true);
  });
});
