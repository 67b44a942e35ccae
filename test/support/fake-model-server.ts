import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (undefined when it was not JSON). */
  body: any;
}

/** The text of the last user message of a chat request (`''` when there is none): what a scripted model answers to. */
export function lastUserText(req: RecordedRequest): string {
  const messages = (req.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : '';
}

/**
 * What a scripted step answers: JSON, raw text (for malformed bodies), no answer at all (`stall`), an answer that
 * starts and never finishes (`trickle`: headers, then a byte of body every 100 ms — a model streaming slowly), or
 * an answer held back until `after` settles (a slow model the test decides when to let finish).
 */
export type FakeReply = { status: number; json: unknown } | { status: number; raw: string } | 'stall' | 'trickle' | HeldReply | SseReply;
/** One server-sent event: `event: <event>` (when set) and `data: <data>`. */
export interface FakeSseEvent {
  event?: string;
  data: string;
}
/**
 * A `text/event-stream` answer: the events in order, `gapMs` apart (the first at once), then the end of the
 * response. A client that hangs up before the end counts in `clientAborts`.
 */
export interface SseReply {
  status: number;
  events: FakeSseEvent[];
  gapMs?: number;
}
export interface HeldReply {
  after: Promise<unknown>;
  reply: FakeReply;
}
export type FakeStep = (req: RecordedRequest) => FakeReply;

export interface FakeApiRules {
  /** The one endpoint this API serves, e.g. `/v1/chat/completions`. */
  path: string;
  /** The API's error envelope for a status and message. */
  errorBody(status: number, message: string): unknown;
  /** Request checks the real API does before anything else (auth, required fields); a message means reject. */
  precheck?(req: RecordedRequest): { status: number; message: string } | undefined;
}

/**
 * A real `node:http` server on a free loopback port, answering one model API endpoint from a per-test script
 * (a FIFO of steps). It records every request so tests can assert exactly what the provider sent, and it keeps
 * stalled requests open until the client gives up (counted in `clientAborts`) or the server closes.
 */
export class FakeModelServer {
  readonly requests: RecordedRequest[] = [];
  /** Problems a validating step found in a request (also returned to the client as a 400). */
  readonly violations: string[] = [];
  /** Stalled requests whose client disconnected (timeout or abort reached the wire). */
  clientAborts = 0;
  private readonly steps: FakeStep[] = [];
  private fallback?: FakeStep;
  private readonly server: http.Server;
  private port = 0;

  constructor(private readonly rules: FakeApiRules) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Answers every request the script has no step for (a model "brain" deciding per request). */
  always(step: FakeStep): this {
    this.fallback = step;
    return this;
  }

  /** Appends steps; each request consumes the next one. */
  script(...steps: FakeStep[]): this {
    this.steps.push(...steps);
    return this;
  }

  /** Forgets recorded requests, violations and pending steps (between tests sharing one server). */
  reset(): void {
    this.requests.length = 0;
    this.violations.length = 0;
    this.steps.length = 0;
    this.clientAborts = 0;
  }

  /** Answers like `step`, but only once `gate` settles; the request stays open until then. */
  held(gate: Promise<unknown>, step: FakeStep): FakeStep {
    return (req) => ({ after: gate, reply: step(req) });
  }

  /** Records a violation and answers it as the API's 400, so a provider that sends a bad shape fails loudly. */
  reject(message: string): FakeReply {
    this.violations.push(message);
    return { status: 400, json: this.rules.errorBody(400, message) };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
    this.requests.push(recorded);
    let reply = this.replyFor(recorded);
    while (typeof reply === 'object' && 'after' in reply) {
      const { after, reply: next } = reply;
      await after.catch(() => undefined);
      reply = next;
    }
    if (typeof reply === 'object' && 'events' in reply) return this.writeEvents(res, reply);
    if (reply === 'stall' || reply === 'trickle') {
      // Never finish; the provider's timeout or the run's abort must end it. `close` fires when the client hangs up.
      res.on('close', () => {
        if (!res.writableEnded) this.clientAborts++;
        clearInterval(dripping);
      });
      let dripping: NodeJS.Timeout | undefined;
      if (reply === 'trickle') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        dripping = setInterval(() => res.write(' '), 100);
      }
      return;
    }
    const payload = 'raw' in reply ? reply.raw : JSON.stringify(reply.json);
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(payload);
  }

  /** Writes an event stream as the real APIs do: `event:`/`data:` lines, a blank line after each event. */
  private async writeEvents(res: http.ServerResponse, reply: SseReply): Promise<void> {
    let hungUp = false;
    res.on('close', () => {
      if (!res.writableEnded) {
        hungUp = true;
        this.clientAborts++;
      }
    });
    res.writeHead(reply.status, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    for (let i = 0; i < reply.events.length; i++) {
      if (i > 0 && reply.gapMs) await new Promise((resolve) => setTimeout(resolve, reply.gapMs));
      if (hungUp || res.destroyed) return;
      const { event, data } = reply.events[i];
      res.write(`${event ? `event: ${event}\n` : ''}data: ${data}\n\n`);
    }
    res.end();
  }

  private replyFor(req: RecordedRequest): FakeReply {
    const error = (status: number, message: string): FakeReply => ({ status, json: this.rules.errorBody(status, message) });
    if (req.method !== 'POST' || req.path !== this.rules.path) return error(404, `no route ${req.method} ${req.path}`);
    if (req.body === undefined) return error(400, 'request body is not valid JSON');
    const pre = this.rules.precheck?.(req);
    if (pre) return error(pre.status, pre.message);
    const step = this.steps.shift() ?? this.fallback;
    if (!step) return error(500, 'fake server: no scripted reply left');
    return step(req);
  }
}
