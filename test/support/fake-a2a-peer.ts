import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake peer received it: everything on the wire, for "what did we send" assertions. */
export interface PeerRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body text. */
  raw: string;
  /** Parsed JSON-RPC body (undefined when not JSON). */
  body: any;
}

/** What a scripted step answers. `huge` streams that many bytes of JSON-ish filler with no Content-Length. */
export type PeerReply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; raw: string; headers?: Record<string, string> }
  | { huge: number }
  | 'stall';
export type PeerStep = (req: PeerRequest) => PeerReply;

/**
 * A scriptable A2A peer on node:http (a free loopback port). Each request consumes the next scripted step;
 * without one it behaves like a well-mannered A2A 1.0 agent (`behave()`): SendMessage creates a WORKING task,
 * GetTask completes it with an echo artifact after `pollsUntilDone` polls. With `speaks = '0.3'` it is an
 * agent that only knows A2A 0.3 (`behaveV03()`). Every request is recorded.
 */
export class FakeA2aPeer {
  readonly requests: PeerRequest[] = [];
  /** GETs of its Agent Card (answered 404: this peer publishes no card, so clients do not stream to it). */
  readonly cardRequests: PeerRequest[] = [];
  /** Requests whose client went away while the step stalled (a timeout reached the wire). */
  clientAborts = 0;
  private readonly steps: PeerStep[] = [];
  private readonly tasks = new Map<string, { contextId: string; text: string; polls: number }>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private port = 0;
  pollsUntilDone = 1;
  /** Which default behaviour answers unscripted requests. */
  speaks: '1.0' | '0.3' = '1.0';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get portNumber(): number {
    return this.port;
  }

  /** `http://127.0.0.1:<port>/a2a/v1` */
  get url(): string {
    return `http://127.0.0.1:${this.port}/a2a/v1`;
  }

  script(...steps: PeerStep[]): this {
    this.steps.push(...steps);
    return this;
  }

  reset(): void {
    this.requests.length = 0;
    this.cardRequests.length = 0;
    this.steps.length = 0;
    this.clientAborts = 0;
    this.pollsUntilDone = 1;
    this.speaks = '1.0';
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  /** The default behaviour, also usable as a step. */
  readonly behave: PeerStep = (req) => {
    const { method, params, id } = req.body ?? {};
    if (method === 'SendMessage' || method === 'message/send') {
      const text = (params?.message?.parts ?? []).map((p: { text?: string }) => p.text ?? '').join('\n');
      const taskId = randomUUID();
      const contextId = params?.message?.contextId ?? `ctx-${randomUUID()}`;
      this.tasks.set(taskId, { contextId, text, polls: 0 });
      return rpcResult(id, { task: wireTask(taskId, contextId, 'TASK_STATE_WORKING') });
    }
    if (method === 'GetTask' || method === 'tasks/get') {
      const task = this.tasks.get(params?.id);
      if (!task) return rpcError(id, -32001, 'Task not found');
      task.polls++;
      return task.polls >= this.pollsUntilDone
        ? rpcResult(id, wireTask(params.id, task.contextId, 'TASK_STATE_COMPLETED', `echo: ${task.text}`))
        : rpcResult(id, wireTask(params.id, task.contextId, 'TASK_STATE_WORKING'));
    }
    return rpcError(id, -32601, 'Method not found');
  };

  /**
   * An agent of the A2A 0.3 era, strict about 0.3 shapes: the 1.0 method names are unknown to it (-32601); a
   * `message/send` whose message or parts are not 0.3-shaped is -32602; answers are bare 0.3 tasks.
   */
  readonly behaveV03: PeerStep = (req) => {
    const { method, params, id } = req.body ?? {};
    if (method === 'message/send') {
      const message = params?.message;
      const parts: unknown[] = Array.isArray(message?.parts) ? message.parts : [];
      const wellFormed =
        message?.kind === 'message' &&
        (message.role === 'user' || message.role === 'agent') &&
        parts.length > 0 &&
        parts.every((p: any) => p?.kind === 'text' && typeof p.text === 'string');
      if (!wellFormed) return rpcError(id, -32602, 'Invalid params: not an A2A 0.3 message');
      const taskId = randomUUID();
      const contextId = message.contextId ?? randomUUID();
      this.tasks.set(taskId, { contextId, text: parts.map((p: any) => p.text).join('\n'), polls: 0 });
      return rpcResult(id, v03Task(taskId, contextId, 'working'));
    }
    if (method === 'tasks/get') {
      const task = this.tasks.get(params?.id);
      if (!task) return rpcError(id, -32001, 'Task not found');
      task.polls++;
      return task.polls >= this.pollsUntilDone
        ? rpcResult(id, v03Task(params.id, task.contextId, 'completed', `echo: ${task.text}`))
        : rpcResult(id, v03Task(params.id, task.contextId, 'working'));
    }
    return rpcError(id, -32601, 'Method not found');
  };

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const recorded: PeerRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body };
      // A client reads the Agent Card to learn whether the peer streams; this peer publishes none (it never streams).
      if (req.method === 'GET' && recorded.path.startsWith('/.well-known/')) {
        this.cardRequests.push(recorded);
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"no card"}');
        return;
      }
      this.requests.push(recorded);
      const reply = (this.steps.shift() ?? (this.speaks === '0.3' ? this.behaveV03 : this.behave))(recorded);
      if (reply === 'stall') {
        res.on('close', () => this.clientAborts++);
        return;
      }
      if ('huge' in reply) return streamFiller(res, reply.huge);
      const text = 'json' in reply ? JSON.stringify(reply.json) : reply.raw;
      res.writeHead(reply.status, { 'Content-Type': 'application/json', ...(reply.headers ?? {}) }).end(text);
    });
  }
}

export function rpcResult(id: unknown, result: unknown): PeerReply {
  return { status: 200, json: { jsonrpc: '2.0', id, result } };
}

export function rpcError(id: unknown, code: number, message: string): PeerReply {
  return { status: 200, json: { jsonrpc: '2.0', id, error: { code, message } } };
}

/** A step answering the request's own id with a JSON-RPC error. */
export const answerError =
  (code: number, message: string): PeerStep =>
  (req) =>
    rpcError(req.body?.id, code, message);

/** A step answering with a redirect to `location`. */
export const redirectTo =
  (location: string, status = 302): PeerStep =>
  () => ({ status, raw: '', headers: { Location: location } });

/** An A2A 1.0 task in proto-JSON form. */
export function wireTask(id: string, contextId: string, state: string, reply?: string): Record<string, unknown> {
  return {
    id,
    contextId,
    status: { state, timestamp: new Date().toISOString() },
    artifacts: reply === undefined ? [] : [{ artifactId: randomUUID(), parts: [{ text: reply }] }],
    history: [],
  };
}

/** An A2A 0.3 task: tagged with `kind`, kebab-case state, kind-tagged parts. */
export function v03Task(id: string, contextId: string, state: string, reply?: string): Record<string, unknown> {
  return {
    kind: 'task',
    id,
    contextId,
    status: { state, timestamp: new Date().toISOString() },
    ...(reply === undefined ? {} : { artifacts: [{ artifactId: randomUUID(), parts: [{ kind: 'text', text: reply }] }] }),
  };
}

function streamFiller(res: http.ServerResponse, bytes: number): void {
  // No Content-Length: the client has to count while reading, which is what the cap must do.
  res.writeHead(200, { 'Content-Type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = (): void => {
    while (sent < bytes) {
      const n = Math.min(chunk.length, bytes - sent);
      sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  res.on('error', () => undefined);
  pump();
}
