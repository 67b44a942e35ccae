import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunningGateway } from '../../src/bootstrap';
import { benchLogLevel } from './server-process';

/** The A2A servers the A2A benches compare, each started inside a server process (support/server-process.ts). */

/** The limiter stays on, as in production, with a limit the benches never reach (the check is still paid). */
const RATE_LIMIT_PER_MINUTE = 100_000_000;

export interface ClawgateBenchOptions {
  agent: string;
  /** Peer name → bearer token. */
  peers: Record<string, string>;
  /** The config's `models` section as JSON5 text, when the bench sets one. */
  models?: string;
  /** The config's `gateway` section as JSON5 text (e.g. telemetry), when the bench sets one. */
  gateway?: string;
}

/**
 * clawgate from a fresh temp dir (config, state, HOME): one agent on the default echo model, the A2A channel on for
 * `peers`. SIGTERM closes the gateway, removes the dir and ends the process.
 */
export async function startClawgate(options: ClawgateBenchOptions): Promise<RunningGateway> {
  process.env.CLAWGATE_LOG_LEVEL = benchLogLevel();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-bench-a2a-'));
  const configPath = path.join(dir, 'openclaw.json');
  const peers = Object.entries(options.peers).map(([name, token]) => `"${name}": { token: "${token}" }`);
  await fs.writeFile(
    configPath,
    `{ ${options.models ? `models: ${options.models},` : ''}
       ${options.gateway ? `gateway: ${options.gateway},` : ''}
       agents: { list: [{ id: "${options.agent}" }] },
       channels: { a2a: { enabled: true, rateLimitPerMinute: ${RATE_LIMIT_PER_MINUTE}, peers: { ${peers.join(', ')} } } } }`,
  );
  const { startGateway } = await import('../../src/bootstrap');
  const gateway = await startGateway({ configPath, stateDir: path.join(dir, 'state'), portOverride: 0, env: { HOME: dir } });
  process.on(
    'SIGTERM',
    () => void gateway.close().finally(() => fs.rm(dir, { recursive: true, force: true }).finally(() => process.exit(0))),
  );
  return gateway;
}

type SdkServer = typeof import('@a2a-js/sdk/server');
/** The executor type of @a2a-js/sdk's DefaultRequestHandler. */
export type SdkExecutor = ConstructorParameters<SdkServer['DefaultRequestHandler']>[2];
/** What the executor gets about the incoming call. */
export type SdkRequestContext = Parameters<SdkExecutor['execute']>[0];

export interface SdkBenchOptions {
  agent: string;
  name: string;
  description: string;
  streaming: boolean;
  /** Builds the executor; gets the SDK's modules so the bench needs no import of its own. */
  executor: (sdk: typeof import('@a2a-js/sdk'), server: SdkServer) => SdkExecutor;
}

/**
 * The agent served by @a2a-js/sdk's own express server (DefaultRequestHandler, InMemoryTaskStore, jsonRpcHandler,
 * no authentication) — the reference implementation, all in memory. Resolves with its JSON-RPC URL.
 */
export async function startSdkServer(options: SdkBenchOptions): Promise<string> {
  const express = (await import('express')).default;
  const server = await import('@a2a-js/sdk/server');
  const { agentCardHandler, jsonRpcHandler, UserBuilder } = await import('@a2a-js/sdk/server/express');
  const sdk = await import('@a2a-js/sdk');
  const app = express();
  const httpServer = http.createServer(app);
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/a2a/v1`;
  const card = sdk.AgentCard.fromJSON({
    name: options.name,
    description: options.description,
    version: '1.0.0',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: options.streaming, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: options.agent, name: options.agent, description: `Agent ${options.agent}.`, tags: ['bench'] }],
  });
  const handler = new server.DefaultRequestHandler(card, new server.InMemoryTaskStore(), options.executor(sdk, server));
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a/v1', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return url;
}

/** The text parts of the caller's message, joined with newlines (what clawgate's A2A channel hands its agent). */
export function userText(ctx: SdkRequestContext): string {
  return ctx.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('\n');
}

/**
 * A node:http JSON-RPC echo that answers SendMessage with the completed echo task and does no other work: the
 * ceiling of what a server on this machine can answer. Resolves with its URL.
 */
export async function startBareEcho(agent: string): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const message = body.params.message;
      const text = message.parts.map((p: { text?: string }) => p.text ?? '').join('\n');
      const out = JSON.stringify({
        jsonrpc: '2.0',
        id: body.id,
        result: {
          task: {
            id: randomUUID(),
            contextId: message.contextId ?? `ctx-${randomUUID()}`,
            status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
            artifacts: [{ artifactId: randomUUID(), parts: [{ text: `[${agent}] ${text.slice(0, 200)}` }] }],
            history: [],
          },
        },
      });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a/v1`;
}
