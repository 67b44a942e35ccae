import * as http from 'node:http';
import { requestBodyLimit } from '../../src/modules/a2a-channel/protocol/limits-and-messages';
import { FakeOpenAiServer } from './fake-openai-server';
import { startTestGateway, TestGateway } from './gateway-harness';

/**
 * The gateway the A2A error-path suites share (test/a2a/a2a-errors.e2e-spec.ts for JSON-RPC, test/a2a/a2a-rest-errors.e2e-spec.ts
 * for HTTP+JSON): peers hermes and iris on the echo agent, bigmouth routed to an agent whose model answers with more than
 * 1 MiB, ghost whose token's ${VAR} is unset, and one finished task of iris.
 */

// Same length on purpose: a wrong token must fail for its value, not its length.
export const HERMES = 'hermes-token-0123456789abcdef';
export const WRONG = 'hermes-token-0123456789abcdeX';
export const IRIS = 'iris-token-fedcba9876543210';
export const BIG = 'bigmouth-token-5a5a5a5a5a5a';
export const MiB = 1024 * 1024;
/** The body limit of both bindings with the default channels.a2a.files.maxBytes (1 MiB): 1 MiB plus 1 MiB in base64. */
export const LIMIT = requestBodyLimit(MiB);

/** An answer as it came off the wire. */
export interface Outcome {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface ErrorPathsGateway {
  gw: TestGateway;
  /** The finished task of peer iris. */
  irisTaskId: string;
  /** Every response body read through `raw`, to check that none carried a token. */
  bodies: string[];
  /** A raw request, so the test controls the exact bytes (and chunking) on the wire. */
  raw(
    body: Buffer | Buffer[],
    token?: string | null,
    path?: string,
    method?: string,
    extraHeaders?: http.OutgoingHttpHeaders,
  ): Promise<Outcome>;
  stop(): Promise<void>;
}

export async function startErrorPathsGateway(): Promise<ErrorPathsGateway> {
  const model = await new FakeOpenAiServer().start();
  // About 1.1 MiB of reply: the response must be replaced, the task still completes.
  model.always(model.text('z'.repeat(MiB + 100_000)));
  const gw = await startTestGateway(`{
    models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
    agents: { list: [{ id: "main", default: true }, { id: "big", model: "fake/big" }] },
    bindings: [{ agentId: "big", match: { channel: "a2a", peer: { kind: "direct", id: "bigmouth" } } }],
    channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: {
      hermes: { token: "${HERMES}" }, iris: { token: "${IRIS}" }, bigmouth: { token: "${BIG}" }, ghost: { token: "\${GHOST_TOKEN}" },
    } } },
  }`);
  const bodies: string[] = [];
  const raw: ErrorPathsGateway['raw'] = (body, token = HERMES, path = '/a2a/v1', method = 'POST', extraHeaders = {}) =>
    new Promise((resolve, reject) => {
      const chunks = Array.isArray(body) ? body : [body];
      const headers: http.OutgoingHttpHeaders = { 'Content-Type': 'application/json', ...extraHeaders };
      if (token !== null) headers.Authorization = `Bearer ${token}`;
      if (!Array.isArray(body)) headers['Content-Length'] = body.length;
      const req = http.request(`${gw.url}${path}`, { method, headers, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          bodies.push(text);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        });
      });
      // The server may close once it has answered an oversized body; the answer is what counts.
      req.on('error', (err) => (err.message.includes('EPIPE') || err.message.includes('ECONNRESET') ? undefined : reject(err)));
      for (const c of chunks) req.write(c);
      req.end();
    });
  const created = await raw(
    Buffer.from(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'a task of iris' }] } },
      }),
    ),
    IRIS,
  );
  const irisTaskId = (JSON.parse(created.text) as { result: { task: { id: string } } }).result.task.id;
  return {
    gw,
    irisTaskId,
    bodies,
    raw,
    stop: async () => {
      await gw.stop();
      await model.close();
    },
  };
}
