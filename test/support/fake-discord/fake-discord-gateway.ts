import type { IncomingMessage } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import type { FakeDiscordBot } from './fake-discord-world';
import { snowflake } from './fake-discord-world';

/** Gateway intents the fake looks at (https://discord.com/developers/docs/events/gateway#gateway-intents). */
export const INTENTS = { GUILDS: 1 << 0, GUILD_MESSAGES: 1 << 9, DIRECT_MESSAGES: 1 << 12, MESSAGE_CONTENT: 1 << 15 } as const;
const ALL_INTENTS = (1 << 26) - 1;

interface GatewayPayload {
  op: number;
  d?: unknown;
  s?: number | null;
  t?: string | null;
}

/** One gateway session: what a RESUME continues. Dispatches sent while it has no socket are kept for the replay. */
interface Session {
  id: string;
  bot: FakeDiscordBot;
  intents: number;
  seq: number;
  sent: GatewayPayload[];
  socket?: WebSocket;
  ended: boolean;
}

/** What the gateway asks of the rest of the fake. */
export interface GatewayWorld {
  botByToken(token: string): FakeDiscordBot | undefined;
  /** READY's `guilds` and then one GUILD_CREATE payload each, for the bot's guilds. */
  guildsOf(bot: FakeDiscordBot): Record<string, unknown>[];
}

/**
 * The Discord Gateway over WebSocket, as documented (https://discord.com/developers/docs/events/gateway): HELLO
 * (op 10) on connect with `heartbeat_interval`; HEARTBEAT (op 1) answered by HEARTBEAT_ACK (op 11); IDENTIFY (op 2)
 * with the token and intents checked (an unknown token closes with 4004, bad intents 4013); READY then a
 * GUILD_CREATE per guild; dispatches (op 0) numbered by `s`; RESUME (op 6) replays what the session missed after the
 * client's last `seq`, then RESUMED; an unknown session gets INVALID_SESSION (op 9, `d: false`). JSON encoding, no
 * compression (discord.js asks for zlib-stream only when `zlib-sync` is installed).
 */
export class FakeDiscordGateway {
  readonly wss = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly world: GatewayWorld,
    private readonly url: () => string,
    private readonly heartbeatIntervalMs: number,
  ) {
    this.wss.on('connection', (socket) => this.connected(socket));
  }

  upgrade(req: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  }

  /** Sends a dispatch to every open or resumable session of the bot whose intents ask for it. */
  dispatch(bot: FakeDiscordBot, t: string, d: unknown, intent?: number, shape?: (d: unknown, session: Session) => unknown): void {
    for (const session of this.sessions.values()) {
      if (session.bot !== bot || session.ended) continue;
      if (intent !== undefined && !(session.intents & intent)) continue;
      this.send(session, t, shape ? shape(d, session) : d);
    }
  }

  /** Drops the bot's connections as a network failure would: the sessions stay resumable, dispatches queue up. */
  drop(bot: FakeDiscordBot): number {
    let dropped = 0;
    for (const session of this.sessions.values()) {
      if (session.bot !== bot || !session.socket) continue;
      session.socket.terminate();
      session.socket = undefined;
      dropped++;
    }
    return dropped;
  }

  /** How many connections of the bot are open and identified or resumed. */
  liveConnections(bot: FakeDiscordBot): number {
    return [...this.sessions.values()].filter((s) => s.bot === bot && s.socket?.readyState === WebSocket.OPEN).length;
  }

  close(): void {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }

  private connected(socket: WebSocket): void {
    let session: Session | undefined;
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs }, s: null, t: null }));
    socket.on('message', (raw) => {
      let payload: GatewayPayload;
      try {
        payload = JSON.parse((raw as Buffer).toString('utf8')) as GatewayPayload;
      } catch {
        return socket.close(4002, 'Error while decoding payload.');
      }
      switch (payload.op) {
        case 1:
          return socket.send(JSON.stringify({ op: 11 }));
        case 2:
          if (session) return socket.close(4005, 'Already authenticated.');
          session = this.identify(socket, payload.d as { token?: string; intents?: unknown });
          return;
        case 6:
          if (session) return socket.close(4005, 'Already authenticated.');
          session = this.resume(socket, payload.d as { token?: string; session_id?: string; seq?: number });
          return;
        default:
          if (!session) return socket.close(4003, 'Not authenticated.');
      }
    });
    socket.on('close', (code) => {
      if (!session || session.socket !== socket) return;
      session.socket = undefined;
      // A client that closes with 1000/1001 ends its session; any other close leaves it resumable.
      if (code === 1000 || code === 1001) session.ended = true;
    });
  }

  private identify(socket: WebSocket, d: { token?: string; intents?: unknown }): Session | undefined {
    const bot = this.world.botByToken(stripBot(d.token));
    if (!bot) {
      socket.close(4004, 'Authentication failed.');
      return undefined;
    }
    if (typeof d.intents !== 'number' || !Number.isInteger(d.intents) || d.intents < 0 || d.intents & ~ALL_INTENTS) {
      socket.close(4013, 'Invalid intent(s).');
      return undefined;
    }
    bot.handshakes.push('IDENTIFY');
    const session: Session = { id: snowflake(), bot, intents: d.intents, seq: 0, sent: [], socket, ended: false };
    this.sessions.set(session.id, session);
    const guilds = this.world.guildsOf(bot);
    this.send(session, 'READY', {
      v: 10,
      user: bot.user,
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: this.url(),
      shard: [0, 1],
      application: { id: bot.user.id, flags: 0 },
    });
    if (session.intents & INTENTS.GUILDS) for (const guild of guilds) this.send(session, 'GUILD_CREATE', guild);
    return session;
  }

  private resume(socket: WebSocket, d: { token?: string; session_id?: string; seq?: number }): Session | undefined {
    const session = d.session_id ? this.sessions.get(d.session_id) : undefined;
    if (!session || session.ended || session.bot.token !== stripBot(d.token)) {
      socket.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
      return undefined;
    }
    session.bot.handshakes.push('RESUME');
    session.socket?.terminate();
    session.socket = socket;
    const after = typeof d.seq === 'number' ? d.seq : 0;
    for (const payload of session.sent) if ((payload.s ?? 0) > after) socket.send(JSON.stringify(payload));
    this.send(session, 'RESUMED', {});
    return session;
  }

  private send(session: Session, t: string, d: unknown): void {
    const payload: GatewayPayload = { op: 0, d, s: ++session.seq, t };
    session.sent.push(payload);
    if (session.socket?.readyState === WebSocket.OPEN) session.socket.send(JSON.stringify(payload));
  }
}

function stripBot(token: string | undefined): string {
  return (token ?? '').replace(/^Bot /, '');
}
