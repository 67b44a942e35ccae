import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST a receiver got. */
export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** What the receiver answered. */
  status: number;
}

/**
 * A webhook receiver on loopback, as a peer runs one for A2A push notifications: records every request and answers
 * each with the next status of its script (then `thenStatus`, 200 by default).
 */
export class PushReceiver {
  readonly received: ReceivedPush[] = [];
  private readonly script: number[] = [];
  thenStatus = 200;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = this.script.shift() ?? this.thenStatus;
      this.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status, { 'Content-Type': 'text/plain' });
      res.end(status < 300 ? 'ok' : 'try again');
    });
  });
  private port = 0;
  private host = '127.0.0.1';

  /** Listens on a free port of `host` (any loopback address: 127.0.0.2 is another host to the gateway). */
  async start(host = '127.0.0.1'): Promise<this> {
    this.host = host;
    await new Promise<void>((resolve) => this.server.listen(0, host, resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get origin(): string {
    return `http://${this.host}:${this.port}`;
  }

  /** The next requests are answered with these statuses, in order. */
  answer(...statuses: number[]): this {
    this.script.push(...statuses);
    return this;
  }

  /** Parsed bodies of the requests for one task. */
  bodiesFor(taskId: string): Array<Record<string, any>> {
    return this.received.map((r) => JSON.parse(r.body) as Record<string, any>).filter((b) => JSON.stringify(b).includes(taskId));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
