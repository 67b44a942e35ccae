import { isMcpToolEntry, mcpEntryServer } from '../../../common/mcp-tool-policy';
import { suggestClosest } from '../../../common/text/did-you-mean';
import { CONFIG_DEFAULTS } from '../config-defaults';
import type { McpServerSettings, McpSettings, McpTransport, ResolvedAgent } from '../config.types';
import type { McpConfig, McpServerConfig } from '../schema/mcp.schema';
import { NormalizeContext, resolveUserPath } from './normalize-context';

const DEFAULTS = CONFIG_DEFAULTS.each.mcpServer;

/**
 * `mcp.servers` with every default filled and each server's transport decided: stdio needs `command`, the HTTP
 * transports need `url`, and a server has one or the other (an error naming the key otherwise).
 */
export function normalizeMcp(ctx: NormalizeContext, mcp: McpConfig | undefined): McpSettings {
  const servers: Record<string, McpServerSettings> = {};
  for (const [name, server] of mcp?.servers ?? []) {
    const settings = normalizeServer(ctx, name, server);
    if (settings) servers[name] = settings;
  }
  return { servers };
}

export function normalizeServer(ctx: NormalizeContext, name: string, s: McpServerConfig): McpServerSettings | undefined {
  const at = `mcp.servers.${name}`;
  const transport = (s.transport ?? (s.command !== undefined ? 'stdio' : 'streamable-http')) as McpTransport;
  if (transport === 'stdio') {
    if (s.command === undefined) {
      ctx.errors.push({ path: `${at}.command`, message: 'is required for a stdio server (the program to start), or set url for an HTTP server' });
      return undefined;
    }
    if (s.url !== undefined) ctx.errors.push({ path: `${at}.url`, message: 'is for HTTP servers; a stdio server has command, not url' });
  } else {
    if (s.url === undefined) {
      ctx.errors.push({ path: `${at}.url`, message: `is required for a ${transport} server (its MCP endpoint), or set command for a stdio server` });
      return undefined;
    }
    if (s.command !== undefined) ctx.errors.push({ path: `${at}.command`, message: `is for stdio servers; a ${transport} server has url, not command` });
  }
  return {
    name,
    enabled: s.enabled ?? DEFAULTS.enabled,
    transport,
    ...(transport === 'stdio' ? { command: s.command, cwd: resolveUserPath(ctx, s.cwd ?? '.') } : { url: s.url }),
    args: [...(s.args ?? DEFAULTS.args)],
    env: definedValues(s.env ?? DEFAULTS.env),
    headers: definedValues(s.headers ?? DEFAULTS.headers),
    startup: (s.startup ?? DEFAULTS.startup) as McpServerSettings['startup'],
    requestTimeoutMs: s.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    connectionTimeoutMs: s.connectionTimeoutMs ?? DEFAULTS.connectionTimeoutMs,
    maxOutputBytes: s.maxOutputBytes ?? DEFAULTS.maxOutputBytes,
    toolFilter: {
      ...(s.toolFilter?.include ? { include: [...s.toolFilter.include] } : {}),
      exclude: [...(s.toolFilter?.exclude ?? DEFAULTS.toolFilter.exclude)],
    },
  };
}

/** A `${VAR}` left unset in a secret map is no value at all (the loader has warned about it). */
function definedValues(map: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * A warning per agent list entry `mcp:<server>:…` whose server neither `mcp.servers` has nor an enabled plugin
 * declares (`contracts.mcpServers`), with did-you-mean: it would never match a tool, which is what a typo looks like.
 */
export function warnUnknownMcpServers(
  ctx: NormalizeContext,
  agents: readonly ResolvedAgent[],
  mcp: McpSettings,
  pluginServers: ReadonlySet<string> = new Set(),
): void {
  const names = [...Object.keys(mcp.servers), ...pluginServers];
  const unknown = new Set<string>();
  for (const agent of agents) {
    for (const entry of [...agent.tools.allow, ...agent.tools.deny]) {
      const server = isMcpToolEntry(entry) ? mcpEntryServer(entry) : undefined;
      if (server !== undefined && !names.includes(server)) unknown.add(server);
    }
  }
  for (const server of unknown) {
    const hint = suggestClosest(server, names);
    ctx.warnings.push({
      path: 'mcp.servers',
      message: `tools.allow/deny name MCP server "${server}", which mcp.servers does not have${hint ? ` (did you mean "${hint}"?)` : ''}`,
    });
  }
}
