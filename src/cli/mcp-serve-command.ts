import { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isCanonicalAgentId } from '../common/agent-id';
import { keyMayUse } from '../modules/endpoint-keys';
import { formatConfigIssue, loadConfig, locateConfig, type NormalizedConfig } from '../modules/config';
import { MCP_AGENT_HEADER, MCP_ENDPOINT_PATH } from '../modules/mcp-server';
import type { LocateOptions } from './cli-config-edit';

/** The key's token, when not taken from the config: never an argument (it would show in `ps`). */
const KEY_VARIABLE = 'CLAWGATE_MCP_KEY';
/** A JSON-RPC server error: what a request the gateway could not take is answered with, locally. */
const BRIDGE_ERROR = -32000;

export interface McpServeOptions extends LocateOptions {
  agent: string;
  key?: string;
}

/**
 * `clawgate mcp serve --agent <id>`: an MCP server on stdin/stdout for desktop clients that only launch local
 * commands, bridged to the running gateway's `/mcp` (docs/mcp.md#stdio-clawgate-mcp-serve). Every message
 * passes through unchanged both ways (progress, cancellation and list_changed included), each request narrowed
 * to the one agent by `x-openclaw-agent-id`, so the session, its runs, keys, rate limit and logs are the
 * gateway's own. Stdout carries protocol messages only: everything else the process writes goes to stderr.
 */
export async function runMcpServe(opts: McpServeOptions): Promise<void> {
  const protocolOut = reserveStdout();
  const agent = opts.agent.trim().toLowerCase();
  if (!isCanonicalAgentId(agent)) return fail(`--agent must be an agent id ([a-z0-9][a-z0-9_-]{0,63}), not ${JSON.stringify(opts.agent)}`);
  const target = await gatewayTarget(opts, agent);
  if ('error' in target) return fail(target.error);

  const endpoint = new URL(MCP_ENDPOINT_PATH, `${target.url}/`);
  const upstream = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${target.token}`, [MCP_AGENT_HEADER]: agent } },
  });
  const local = new StdioServerTransport(process.stdin, protocolOut);
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    // Ends the gateway's session (DELETE) so it does not hold one of the key's session slots until the least recently
    // used is evicted (mcp-sessions.ts); the gateway may be gone already.
    await upstream.terminateSession().catch(() => undefined);
    await upstream.close().catch(() => undefined);
    await local.close().catch(() => undefined);
  };

  local.onmessage = (message) => {
    upstream.send(message).catch((err: Error) => {
      const why = `the gateway at ${endpoint.href} did not take the message: ${err.message}`;
      process.stderr.write(`clawgate mcp serve: ${why}\n`);
      // A request gets its answer here, so the client does not wait for one that will never come.
      if (isJSONRPCRequest(message)) void local.send({ jsonrpc: '2.0', id: message.id, error: { code: BRIDGE_ERROR, message: why } });
    });
  };
  upstream.onmessage = (message) => {
    followProtocolVersion(upstream, message);
    void local.send(message);
  };
  upstream.onerror = (err) => process.stderr.write(`clawgate mcp serve: ${err.message}\n`);
  local.onerror = (err) => process.stderr.write(`clawgate mcp serve: ${err.message}\n`);
  process.stdin.on('end', () => void close());
  process.once('SIGTERM', () => void close());
  process.once('SIGINT', () => void close());
  await upstream.start();
  await local.start();
  process.stderr.write(`clawgate mcp serve: agent ${agent} through ${endpoint.href} (stdio)\n`);
}

/**
 * The real stdout for the protocol alone: any other write to `process.stdout` (a library's console.log, a
 * warning) is sent to stderr instead, where it cannot break the client's reading of messages.
 */
function reserveStdout(): Writable {
  const write = process.stdout.write.bind(process.stdout);
  const protocolOut = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      write(chunk, callback);
    },
  });
  process.stdout.write = process.stderr.write.bind(process.stderr);
  console.log = console.error;
  console.info = console.error;
  return protocolOut;
}

/** After the handshake the HTTP transport sends the negotiated version on every request, as the SDK's client does. */
function followProtocolVersion(upstream: StreamableHTTPClientTransport, message: JSONRPCMessage): void {
  if (!isJSONRPCResultResponse(message)) return;
  const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
  if (typeof version === 'string') upstream.setProtocolVersion(version);
}

/**
 * Where the gateway is and which key to present. The URL: `CLAWGATE_URL`, else the config's `gateway.bind` and
 * `gateway.port`. The key: `CLAWGATE_MCP_KEY`, else `--key <name>` of the config's `gateway.http.endpoints.mcp`,
 * else its first usable key that may reach the agent (whoever runs this reads the config and its variables anyway).
 */
async function gatewayTarget(opts: McpServeOptions, agent: string): Promise<{ url: string; token: string } | { error: string }> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const loaded = await loadConfig({ configPath, stateDir, env: process.env });
  const fromEnv = process.env[KEY_VARIABLE]?.trim();
  const envUrl = process.env.CLAWGATE_URL?.trim().replace(/\/+$/, '');
  if (!loaded.ok) {
    // Without a readable config the variables must say everything.
    if (fromEnv && envUrl) return { url: envUrl, token: fromEnv };
    const issues = loaded.errors.map((e) => formatConfigIssue(e)).join('; ');
    return { error: `cannot read the config ${configPath} (${issues}); or set CLAWGATE_URL and ${KEY_VARIABLE}` };
  }
  const config = loaded.snapshot.config;
  if (!config.agents.some((a) => a.id === agent)) {
    return { error: `no agent "${agent}" in ${configPath} (agents: ${config.agents.map((a) => a.id).join(', ')})` };
  }
  const url = envUrl || localUrl(config);
  if (fromEnv) return { url, token: fromEnv };
  const settings = config.gateway.http.endpoints.mcp;
  const candidates = settings.keys.filter((k) => (opts.key === undefined ? k.usable && keyMayUse(k, agent) : k.name === opts.key));
  const key = candidates[0];
  if (!key) {
    const which = opts.key === undefined ? `no usable key that may reach agent "${agent}"` : `no key named "${opts.key}"`;
    return { error: `gateway.http.endpoints.mcp in ${configPath} has ${which}; add one, or set ${KEY_VARIABLE}` };
  }
  if (!key.token) return { error: `the token of MCP key "${key.name}" is unset (its variable is not set in this environment)` };
  if (!keyMayUse(key, agent))
    return { error: `MCP key "${key.name}" may not reach agent "${agent}" (its agents: ${key.agents.join(', ')})` };
  if (!settings.enabled)
    process.stderr.write(`clawgate mcp serve: warning: gateway.http.endpoints.mcp.enabled is false in ${configPath}\n`);
  return { url, token: key.token };
}

/**
 * The gateway of this config on this machine: its port on loopback when it listens on every address, over HTTPS when
 * `gateway.tls` is on (a self-signed certificate must then be trusted, e.g. with NODE_EXTRA_CA_CERTS).
 */
export function localUrl(config: Pick<NormalizedConfig, 'gateway'>): string {
  const { bind, port, tls } = config.gateway;
  const host = bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind.includes(':') ? `[${bind}]` : bind;
  return `${tls.enabled ? 'https' : 'http'}://${host}:${port}`;
}

function fail(message: string): void {
  process.stderr.write(`clawgate mcp serve: ${message}\n`);
  process.exitCode = 1;
}
