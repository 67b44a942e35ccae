import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { BackgroundWork } from '../background-work';
import type { FakeSlackApp } from './fake-slack-app';
import type { SlackEnvelope } from './slack-types';

/** How Socket Mode redelivers: after how long without an acknowledgement, and how many times. */
export interface RedeliveryOptions {
  ackTimeoutMs?: number;
  maxRetries?: number;
}

/**
 * Socket Mode (https://api.slack.com/apis/socket-mode): `apps.connections.open` hands out a one-time `ws://` URL;
 * a connection gets `hello`, then `events_api` envelopes, each to be acknowledged by `{ envelope_id }`; one not
 * acknowledged in time is sent again with `retry_attempt`/`retry_reason`; `disconnect` asks the client to reconnect.
 */
export class SlackSocketMode {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Map<string, FakeSlackApp>();
  private readonly sockets = new Map<FakeSlackApp, Set<WebSocket>>();
  /** Envelopes waiting for a connection, per app. */
  private readonly queued = new Map<FakeSlackApp, SlackEnvelope[]>();
  /** The redelivery timers. */
  private readonly work = new BackgroundWork();

  constructor(private readonly options: RedeliveryOptions) {}

  register(app: FakeSlackApp): void {
    this.sockets.set(app, new Set());
  }

  /** A one-time connection URL for the app (what `apps.connections.open` answers). */
  open(app: FakeSlackApp, origin: string): string {
    const ticket = randomUUID();
    this.tickets.set(ticket, app);
    return `${origin.replace(/^http/, 'ws')}/link/?ticket=${ticket}&app_id=${app.appId}`;
  }

  /** An HTTP upgrade: accepted with a ticket not used before, else 401. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const app = url.pathname === '/link/' ? this.tickets.get(url.searchParams.get('ticket') ?? '') : undefined;
    if (!app) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    this.tickets.delete(url.searchParams.get('ticket')!); // a ticket is good for one connection
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(app, ws));
  }

  close(): void {
    this.work.stop();
    for (const set of this.sockets.values()) for (const ws of set) ws.terminate();
  }

  /** Asks every connection of the app to reconnect (`{ type: "disconnect", reason }`). */
  requestReconnect(app: FakeSlackApp, reason: string): void {
    for (const ws of this.sockets.get(app) ?? []) {
      ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-fake' } }));
    }
  }

  /** The app's open connections. */
  connections(app: FakeSlackApp): number {
    return [...(this.sockets.get(app) ?? [])].filter((ws) => ws.readyState === WebSocket.OPEN).length;
  }

  /** Sends an envelope on one open connection (queued until there is one); redelivered while not acknowledged. */
  send(app: FakeSlackApp, envelope: SlackEnvelope, retry: boolean): void {
    const ws = [...(this.sockets.get(app) ?? [])].find((s) => s.readyState === WebSocket.OPEN);
    if (!ws) {
      const queue = this.queued.get(app) ?? [];
      queue.push(envelope);
      this.queued.set(app, queue);
      return;
    }
    app.envelopes.push(envelope);
    ws.send(JSON.stringify(envelope));
    app.changed();
    if (!retry) return;
    this.work.later(() => {
      if (this.work.stopped || app.acked.has(envelope.envelope_id)) return;
      if (envelope.retry_attempt >= (this.options.maxRetries ?? 3)) return;
      const again: SlackEnvelope = {
        ...envelope,
        envelope_id: randomUUID(),
        retry_attempt: envelope.retry_attempt + 1,
        retry_reason: 'timeout',
      };
      this.send(app, again, true);
    }, this.options.ackTimeoutMs ?? 3000);
  }

  private connected(app: FakeSlackApp, ws: WebSocket): void {
    const set = this.sockets.get(app)!;
    set.add(ws);
    ws.on('close', () => {
      set.delete(ws);
      app.changed();
    });
    ws.on('message', (data) => {
      let message: { envelope_id?: unknown };
      try {
        message = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8')) as {
          envelope_id?: unknown;
        };
      } catch {
        return;
      }
      if (typeof message.envelope_id === 'string') {
        app.acked.add(message.envelope_id);
        app.changed();
      }
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: set.size,
        debug_info: { host: 'applink-fake', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: app.appId },
      }),
    );
    app.changed();
    const queue = this.queued.get(app) ?? [];
    this.queued.delete(app);
    for (const envelope of queue) this.send(app, envelope, true);
  }
}
