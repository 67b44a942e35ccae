/**
 * The policy names of MCP tools (docs/mcp.md#which-agents-get-which-tools): tool `<tool>` of server `<server>` is
 * `mcp:<server>:<tool>` in `tools.allow`/`tools.deny`, where `*` matches any run of characters (`mcp:files:*`,
 * `mcp:*`). It sits in common/ because config normalization reads these entries and the runtime matches them.
 */
export const MCP_TOOL_PREFIX = 'mcp:';

/** `mcp:<server>:<tool>`. */
export function mcpToolPolicyName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${server}:${tool}`;
}

/** Whether a `tools.allow`/`deny` entry (or a tool's policy name) is about MCP tools. */
export function isMcpToolEntry(entry: string): boolean {
  return entry.startsWith(MCP_TOOL_PREFIX);
}

/** The server an `mcp:` entry names, when it names one without a pattern (`mcp:files:*` → `files`). */
export function mcpEntryServer(entry: string): string | undefined {
  const server = entry.slice(MCP_TOOL_PREFIX.length).split(':')[0];
  return server && !server.includes('*') ? server : undefined;
}

const patterns = new Map<string, RegExp>();

/** Whether an `mcp:` entry matches a tool's policy name: equal, or its `*` globs match (case-sensitive, as MCP names are). */
export function mcpEntryMatches(entry: string, policyName: string): boolean {
  if (entry === policyName) return true;
  if (!entry.includes('*')) return false;
  let pattern = patterns.get(entry);
  if (!pattern) {
    pattern = new RegExp(`^${entry.split('*').map(escapeRegExp).join('.*')}$`);
    if (patterns.size < 1000) patterns.set(entry, pattern);
  }
  return pattern.test(policyName);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether an allow entry may match some tool of `server` (`mcp:files:*`, `mcp:*`, `mcp:fi*:read`). */
export function mcpEntryGrantsServer(entry: string, server: string): boolean {
  if (!isMcpToolEntry(entry)) return false;
  const rest = entry.slice(MCP_TOOL_PREFIX.length);
  const colon = rest.indexOf(':');
  const serverPart = colon < 0 ? rest : rest.slice(0, colon);
  if (!serverPart.includes('*')) return serverPart === server;
  return colon < 0 || mcpEntryMatches(`${MCP_TOOL_PREFIX}${serverPart}`, `${MCP_TOOL_PREFIX}${server}`);
}

/**
 * The `tools.allow` entries through which an agent may be offered tools of `server`: none when its deny list takes
 * every tool (`*`) or every tool of the server (`mcp:<server>:*`, `mcp:*`). A deny of single tools leaves the grant.
 */
export function mcpServerGrants(tools: { allow: readonly string[]; deny: readonly string[] }, server: string): string[] {
  if (tools.deny.includes('*')) return [];
  if (tools.deny.some((d) => isMcpToolEntry(d) && mcpEntryMatches(d, mcpToolPolicyName(server, '*')))) return [];
  return tools.allow.filter((entry) => mcpEntryGrantsServer(entry, server));
}
