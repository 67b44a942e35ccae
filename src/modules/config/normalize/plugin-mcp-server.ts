import * as path from 'node:path';
import { isRecord } from '../../../common/is-record';
import type { McpServerSettings } from '../config.types';
import type { ConfigIssue } from '../pipeline/config-issue';
import { QUOTE_LITERALLY } from '../pipeline/config-value-quoter';
import { validateConfig } from '../pipeline/validate-config';
import { MCP_SERVER_NAME_PATTERN } from '../schema/mcp.schema';
import { normalizeMcp } from './normalize-mcp';
import { defaultHomeDir, type NormalizeContext } from './normalize-context';

/** A server a plugin hands to `api.registerMcpServer`: its settings as `mcp.servers.<name>` would have them, or what is wrong. */
export type PluginMcpServerResult = { ok: true; settings: McpServerSettings } | { ok: false; issues: ConfigIssue[] };

/**
 * The settings of an MCP server a plugin registers (docs/plugins.md#mcp-servers), checked by the very schema and
 * normalization `mcp.servers.<name>` goes through — the same keys, types, defaults and "command or url" rule — so the
 * MCP client cannot tell the two apart. Issues name the key below the server (`args.0`, `url`), not a config path:
 * the plugin's code wrote it. A relative `cwd` (and the default) is the plugin's directory.
 */
export function pluginMcpServerSettings(name: string, config: unknown, baseDir: string): PluginMcpServerResult {
  if (!MCP_SERVER_NAME_PATTERN.test(name)) {
    return {
      ok: false,
      issues: [{ path: '', message: 'the name must be 1-32 letters, digits, "_" or "-", starting with a letter or digit, without "__"' }],
    };
  }
  if (!isRecord(config)) {
    return { ok: false, issues: [{ path: '', message: 'the config must be an object (command, args, env, cwd or url, headers, …)' }] };
  }
  const at = `mcp.servers.${name}`;
  const relative = (issue: ConfigIssue): ConfigIssue => ({
    ...issue,
    path: issue.path === at ? '' : issue.path.startsWith(`${at}.`) ? issue.path.slice(at.length + 1) : issue.path,
  });
  const validated = validateConfig({ mcp: { servers: { [name]: config } } });
  if (!validated.config) return { ok: false, issues: validated.errors.map(relative) };
  const ctx: NormalizeContext = {
    // Relative paths (cwd) resolve against the directory of `configPath`: the plugin's.
    configPath: path.join(baseDir, 'plugin'),
    stateDir: baseDir,
    homeDir: defaultHomeDir(process.env),
    env: {},
    unusableSecretPaths: new Set<string>(),
    quoter: QUOTE_LITERALLY,
    errors: [],
    warnings: [],
  };
  const settings = normalizeMcp(ctx, validated.config.mcp).servers[name];
  if (ctx.errors.length || !settings) return { ok: false, issues: ctx.errors.map(relative) };
  return { ok: true, settings };
}
