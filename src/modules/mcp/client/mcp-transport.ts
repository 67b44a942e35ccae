import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerSettings } from '../../config';

/** The server's stderr lines kept for its status and its errors (a server says why it stopped there). */
const STDERR_LINES = 5;

/** A transport to one server, and what it tells of the process behind it (stdio). */
export interface McpTransportHandle {
  transport: Transport;
  /** The child process's id (stdio), once started. */
  pid(): number | undefined;
  /** The last lines the process wrote to stderr (stdio). */
  stderrTail(): string[];
}

/**
 * A stdio transport: the command with its arguments in its working directory, its environment the SDK's minimal
 * inherited set (PATH, HOME, …: not the gateway's secrets) plus `env`. stderr is read, not inherited: its lines go to
 * `onStderr` (the gateway's log, masked) and the last few into the server's status.
 */
export function stdioTransport(settings: McpServerSettings, onStderr: (line: string) => void): McpTransportHandle {
  const transport = new StdioClientTransport({
    command: settings.command ?? '',
    args: settings.args,
    env: { ...getDefaultEnvironment(), ...settings.env },
    cwd: settings.cwd,
    stderr: 'pipe',
  });
  const tail: string[] = [];
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines.map((l) => l.trimEnd()).filter(Boolean)) {
      tail.push(line.slice(0, 500));
      if (tail.length > STDERR_LINES) tail.shift();
      onStderr(line);
    }
  });
  return { transport, pid: () => transport.pid ?? undefined, stderrTail: () => [...tail] };
}

/**
 * Streamable HTTP (the current transport), or the older HTTP+SSE one; `headers` go with every request, and every
 * request goes through `fetch`: the outbound guard's (docs/outbound.md), never the process's global one.
 */
export function httpTransport(settings: McpServerSettings, kind: 'streamable-http' | 'sse', fetch: FetchLike): McpTransportHandle {
  const url = new URL(settings.url ?? '');
  const options = { requestInit: { headers: settings.headers }, fetch };
  const transport = kind === 'sse' ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options);
  return { transport, pid: () => undefined, stderrTail: () => [] };
}
