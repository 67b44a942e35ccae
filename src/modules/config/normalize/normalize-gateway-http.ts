import { CONFIG_DEFAULTS } from '../config-defaults';
import type { GatewaySettings, KeyedEndpointSettings } from '../config.types';
import type { ChatCompletionsEndpointConfig, GatewayHttpConfig, McpEndpointConfig } from '../schema/gateway-http.schema';
import type { NormalizeContext } from './normalize-context';

/** `gateway.http`: the OpenAI-compatible endpoint and the MCP server, each with its keys (docs/openai-endpoint.md, docs/mcp.md). */
export function normalizeGatewayHttp(ctx: NormalizeContext, http: GatewayHttpConfig | undefined, agentIds: string[]): GatewaySettings['http'] {
  return {
    endpoints: {
      chatCompletions: normalizeKeyedEndpoint(ctx, 'chatCompletions', http?.endpoints?.chatCompletions, agentIds),
      mcp: normalizeKeyedEndpoint(ctx, 'mcp', http?.endpoints?.mcp, agentIds),
    },
  };
}

/** One endpoint of the shared key model: unique key names and tokens, agent ids that name configured agents. */
function normalizeKeyedEndpoint(
  ctx: NormalizeContext,
  name: 'chatCompletions' | 'mcp',
  endpoint: ChatCompletionsEndpointConfig | McpEndpointConfig | undefined,
  agentIds: string[],
): KeyedEndpointSettings {
  const defaults = CONFIG_DEFAULTS.gateway.http.endpoints[name];
  const at = `gateway.http.endpoints.${name}.keys`;
  const seen = new Set<string>();
  const keys = (endpoint?.keys ?? []).map((key, i) => {
    const name = ctx.quoter.quote(`${at}[${i}].name`, key.name);
    if (seen.has(key.name)) ctx.errors.push({ path: `${at}[${i}].name`, message: `${name} is used by an earlier key; names must be unique` });
    seen.add(key.name);
    const agents = key.agents.map((a) => a.trim());
    agents.forEach((pattern, j) => {
      // A plain id that names no agent is almost always a typo; patterns may match agents added later.
      if (!pattern.includes('*') && !agentIds.includes(pattern)) {
        const shown = ctx.quoter.quote(`${at}[${i}].agents[${j}]`, pattern);
        ctx.warnings.push({ path: `${at}[${i}].agents[${j}]`, message: `no agent ${shown} is configured; this entry reaches nothing` });
      }
    });
    return { name: key.name, token: key.token || undefined, agents, usable: !!key.token };
  });
  // Each key is one caller: two sharing a token could not be told apart (as for peers and accounts).
  const owner = new Map<string, number>();
  keys.forEach(({ token }, i) => {
    const first = token ? owner.get(token) : undefined;
    if (first !== undefined) {
      const name = ctx.quoter.quote(`${at}[${first}].name`, keys[first].name);
      ctx.errors.push({ path: `${at}[${i}].token`, message: `is the same as the token of key ${name}; every key needs its own token` });
    } else if (token) owner.set(token, i);
  });
  return {
    enabled: endpoint?.enabled ?? defaults.enabled,
    rateLimitPerMinute: endpoint?.rateLimitPerMinute ?? defaults.rateLimitPerMinute,
    keys,
  };
}
