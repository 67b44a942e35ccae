import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { FakeSlackApp, nextTs, SlackApiError } from './fake-slack-app';
import { FakeSlackFiles } from './fake-slack-files';
import type {
  PostedMessage,
  RecordedCall,
  SlackConversation,
  SlackEnvelope,
  SlackEventCallback,
  SlackMessageEvent,
  SlackUser,
} from './slack-types';

export interface FakeSlackOptions {
  /** How long an envelope may go unacknowledged before Slack sends it again (Slack: a few seconds; default 3000 ms). */
  ackTimeoutMs?: number;
  /** Redeliveries of an unacknowledged envelope (Slack: 3). */
  maxRetries?: number;
}

let nextId = 1;
const id = (prefix: string): string => `${prefix}0${String(nextId++).padStart(8, '0')}`;

/**
 * A fake Slack on real ports, speaking the documented protocols:
 * - the Web API (https://api.slack.com/web): `POST /api/<method>` with a form or JSON body and the token in
 *   `Authorization: Bearer` (or a `token` parameter); answers `{ ok: true, … }` or `{ ok: false, error }` with HTTP
 *   200 (`not_authed`, `invalid_auth`, `not_allowed_token_type`, `channel_not_found`, `no_text`, `msg_too_long`,
 *   `message_not_found`, `unknown_method`), and 429 with `Retry-After` when a test scripts rate limiting;
 * - Socket Mode (https://api.slack.com/apis/socket-mode): `apps.connections.open` (app-level token only) returns a
 *   one-time `ws://` URL; the socket gets `hello`, then `events_api` envelopes, each to be acknowledged by
 *   `{ envelope_id }`; one not acknowledged in time is sent again with `retry_attempt`/`retry_reason`; `disconnect`
 *   (`refresh_requested`, …) asks the client to reconnect;
 * - the Events API over HTTP (https://api.slack.com/apis/events-api): an app with an `eventsUrl` gets each event
 *   callback by POST, signed (`X-Slack-Signature: v0=HMAC-SHA256(secret, "v0:<ts>:<body>")`,
 *   `X-Slack-Request-Timestamp`); a non-2xx answer is retried with `X-Slack-Retry-Num`/`X-Slack-Retry-Reason`.
 * `apiUrl` is what WebClient's `slackApiUrl` takes.
 */
export class FakeSlackServer {
  readonly teamId = id('T');
  private server?: Server;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly apps: FakeSlackApp[] = [];
  private readonly users = new Map<string, SlackUser>();
  private readonly tickets = new Map<string, FakeSlackApp>();
  private readonly sockets = new Map<FakeSlackApp, Set<WebSocket>>();
  /** Envelopes waiting for a connection, per app. */
  private readonly queued = new Map<FakeSlackApp, SlackEnvelope[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly httpEvents = new Map<FakeSlackApp, string>();
  private readonly deliveries = new Set<Promise<void>>();
  private closed = false;
  /** Files people shared and apps uploaded. */
  readonly files = new FakeSlackFiles(() => this.origin);

  constructor(private readonly options: FakeSlackOptions = {}) {}

  get apiUrl(): string {
    return `${this.origin}/api/`;
  }

  private get origin(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const app = url.pathname === '/link/' ? this.tickets.get(url.searchParams.get('ticket') ?? '') : undefined;
      if (!app) {
        socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
        return;
      }
      this.tickets.delete(url.searchParams.get('ticket')!); // a ticket is good for one connection
      this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(app, ws));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const set of this.sockets.values()) for (const ws of set) ws.terminate();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    await Promise.allSettled([...this.deliveries]);
  }

  /** A Slack app installed in the workspace, with its bot user. */
  addApp(name: string): FakeSlackApp {
    const app = new FakeSlackApp(name, this.teamId, this.apps.length + 1);
    this.apps.push(app);
    this.sockets.set(app, new Set());
    return app;
  }

  /** A person in the workspace. */
  user(name: string): SlackUser {
    const user = { id: id('U'), name: name.toLowerCase(), realName: name, teamId: this.teamId };
    this.users.set(user.id, user);
    return user;
  }

  /** A channel the app's bot was invited to: public (`C…`) by default, `group` for a private one (`G…`). */
  addChannel(app: FakeSlackApp, name: string, type: 'channel' | 'group' | 'mpim' = 'channel'): SlackConversation {
    const conversation: SlackConversation = { id: id(type === 'channel' ? 'C' : 'G'), type, name };
    app.conversations.set(conversation.id, conversation);
    return conversation;
  }

  /** Delivers this app's events by signed HTTP POSTs to `url` (the Events API) instead of Socket Mode. */
  useEventsUrl(app: FakeSlackApp, url: string): void {
    this.httpEvents.set(app, url);
  }

  // ── what people do in Slack ──

  /** A direct message from `user` to the app's bot (in their `im`, made on first use). */
  dm(app: FakeSlackApp, user: SlackUser, text: string, options: { threadTs?: string } = {}): SlackMessageEvent {
    let im = [...app.conversations.values()].find((c) => c.type === 'im' && c.user === user.id);
    if (!im) {
      im = { id: id('D'), type: 'im', user: user.id };
      app.conversations.set(im.id, im);
    }
    return this.say(app, im, { user: user.id, text, ...(options.threadTs ? { thread_ts: options.threadTs } : {}) });
  }

  /** A DM that shares files (subtype `file_share`, the files on the event, served at their `url_private`). */
  dmFiles(app: FakeSlackApp, user: SlackUser, text: string, files: { name: string; mimetype: string; data: Buffer }[]): SlackMessageEvent {
    let im = [...app.conversations.values()].find((c) => c.type === 'im' && c.user === user.id);
    if (!im) {
      im = { id: id('D'), type: 'im', user: user.id };
      app.conversations.set(im.id, im);
    }
    const shared = files.map((f) => this.files.share(f.name, f.mimetype, f.data));
    return this.say(app, im, { user: user.id, text, subtype: 'file_share', upload: false, files: shared });
  }

  /**
   * A message in a channel. `mention` starts it with `<@BOTUSER>` (and Slack then also sends an `app_mention`
   * event for it, with its own event id); `threadTs` posts it in that thread.
   */
  channelMessage(
    app: FakeSlackApp,
    channel: SlackConversation,
    user: SlackUser,
    text: string,
    options: { mention?: boolean; threadTs?: string } = {},
  ): SlackMessageEvent {
    const said = options.mention ? `<@${app.botUserId}> ${text}` : text;
    const event = this.say(app, channel, { user: user.id, text: said, ...(options.threadTs ? { thread_ts: options.threadTs } : {}) });
    if (options.mention) {
      const { channel_type: _type, ...rest } = event;
      this.emit(app, { ...rest, type: 'app_mention' });
    }
    return event;
  }

  /** A message another app's bot posted in the channel. */
  otherBotMessage(app: FakeSlackApp, channel: SlackConversation, text: string): SlackMessageEvent {
    return this.say(app, channel, { bot_id: 'B0OTHERBOT', subtype: 'bot_message', text });
  }

  /** The app's own bot message arriving as an event, as Slack echoes a bot's posts to `message.*` subscribers. */
  echoOwnMessage(app: FakeSlackApp, message: PostedMessage): SlackMessageEvent {
    const conversation = app.conversations.get(message.channel)!;
    return this.say(app, conversation, {
      user: app.botUserId,
      bot_id: app.botId,
      text: message.text,
      ts: message.ts,
      ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
    });
  }

  /** Sends an event envelope again (as Slack does when an acknowledgement was lost), with the next retry attempt. */
  redeliver(app: FakeSlackApp, eventId: string, reason = 'timeout'): SlackEnvelope {
    const last = app.envelopes.filter((e) => e.payload.event_id === eventId).at(-1);
    if (!last) throw new Error(`fake Slack: no event ${eventId}`);
    const again: SlackEnvelope = { ...last, envelope_id: randomUUID(), retry_attempt: last.retry_attempt + 1, retry_reason: reason };
    this.send(app, again, false);
    return again;
  }

  /** Asks every connection of the app to reconnect (`{ type: "disconnect", reason }`), as Slack does before recycling one. */
  requestReconnect(app: FakeSlackApp, reason = 'refresh_requested'): void {
    for (const ws of this.sockets.get(app) ?? []) {
      ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-fake' } }));
    }
  }

  /** The app's open Socket Mode connections. */
  connections(app: FakeSlackApp): number {
    return [...(this.sockets.get(app) ?? [])].filter((ws) => ws.readyState === WebSocket.OPEN).length;
  }

  // ── what the test inspects ──

  calls(app: FakeSlackApp, method?: string): RecordedCall[] {
    return app.calls.filter((c) => method === undefined || c.method === method);
  }

  /** Resolves once `predicate` holds (checked at each change of the app), or rejects after `timeoutMs`. */
  waitFor<T>(app: FakeSlackApp, predicate: () => T | undefined | false, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const value = predicate();
        if (value === undefined || value === false) return;
        done();
        resolve(value);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`fake Slack: timed out waiting for ${what}`));
      }, timeoutMs);
      const stop = app.onChange(check);
      const done = (): void => {
        clearTimeout(timer);
        stop();
      };
      check();
    });
  }

  /** Waits until the bot's messages in `channel` (a DM may be named by the user id) satisfy `predicate`. */
  waitForMessages(
    app: FakeSlackApp,
    channel: string,
    predicate: (messages: PostedMessage[]) => boolean,
    timeoutMs = 10_000,
  ): Promise<PostedMessage[]> {
    return this.waitFor(
      app,
      () => (predicate(app.botMessages(channel)) ? app.botMessages(channel) : undefined),
      timeoutMs,
      `messages in ${channel}`,
    );
  }

  // ── events ──

  private say(app: FakeSlackApp, conversation: SlackConversation, fields: Partial<SlackMessageEvent>): SlackMessageEvent {
    const ts = fields.ts ?? nextTs();
    const event: SlackMessageEvent = {
      type: 'message',
      channel: conversation.id,
      channel_type: conversation.type,
      text: '',
      ...(fields.user && !fields.bot_id ? { client_msg_id: randomUUID() } : {}),
      team: this.teamId,
      ...fields,
      ts,
      event_ts: ts,
    };
    this.emit(app, event);
    return event;
  }

  private emit(app: FakeSlackApp, event: SlackMessageEvent): SlackEventCallback {
    const callback: SlackEventCallback = {
      token: 'verification-token-deprecated',
      team_id: this.teamId,
      api_app_id: app.appId,
      event,
      type: 'event_callback',
      event_id: id('Ev'),
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: this.teamId, user_id: app.botUserId, is_bot: true, is_enterprise_install: false }],
      is_ext_shared_channel: false,
      event_context: `4-${Buffer.from(event.channel).toString('base64')}`,
    };
    const url = this.httpEvents.get(app);
    if (url) {
      this.post(app, url, callback, 0);
      return callback;
    }
    const envelope: SlackEnvelope = {
      envelope_id: randomUUID(),
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: '',
      payload: callback,
    };
    this.send(app, envelope, true);
    return callback;
  }

  /** Sends an envelope on one open connection (queued until there is one); redelivered while not acknowledged. */
  private send(app: FakeSlackApp, envelope: SlackEnvelope, retry: boolean): void {
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
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.closed || app.acked.has(envelope.envelope_id)) return;
      if (envelope.retry_attempt >= (this.options.maxRetries ?? 3)) return;
      const again: SlackEnvelope = {
        ...envelope,
        envelope_id: randomUUID(),
        retry_attempt: envelope.retry_attempt + 1,
        retry_reason: 'timeout',
      };
      this.send(app, again, true);
    }, this.options.ackTimeoutMs ?? 3000);
    this.timers.add(timer);
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

  private post(app: FakeSlackApp, url: string, callback: SlackEventCallback, attempt: number): void {
    if (this.closed) return;
    const body = JSON.stringify(callback);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const delivery = (async () => {
      let ok = false;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-slack-request-timestamp': timestamp,
            'x-slack-signature': slackSignature(app.signingSecret, timestamp, body),
            ...(attempt ? { 'x-slack-retry-num': String(attempt), 'x-slack-retry-reason': 'http_error' } : {}),
          },
          body,
        });
        ok = response.ok;
      } catch {
        ok = false;
      }
      app.changed();
      if (!ok && attempt < (this.options.maxRetries ?? 3)) {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.post(app, url, callback, attempt + 1);
        }, this.options.ackTimeoutMs ?? 3000);
        this.timers.add(timer);
      }
    })();
    this.deliveries.add(delivery);
    void delivery.finally(() => this.deliveries.delete(delivery));
  }

  // ── the Web API ──

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (
      await this.files.serve(
        req,
        res,
        url.pathname,
        this.apps.map((a) => a.botToken),
      )
    )
      return;
    const match = /^\/api\/([A-Za-z.]+)$/.exec(url.pathname);
    if (!match || req.method !== 'POST') return answer(res, 404, { ok: false, error: 'unknown_method' });
    const method = match[1];
    let params: Record<string, unknown>;
    try {
      params = { ...Object.fromEntries(url.searchParams), ...(await readParams(req)) };
    } catch {
      return answer(res, 200, { ok: false, error: 'invalid_form_data' });
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? (typeof params.token === 'string' ? params.token : undefined);
    const { token: _token, ...shown } = params;
    const app = token ? this.apps.find((a) => a.botToken === token || a.appToken === token) : undefined;
    const call: RecordedCall = { method, params: shown, ...(token ? { token } : {}), status: 200 };
    try {
      if (!token) throw new SlackApiError('not_authed');
      if (!app) throw new SlackApiError('invalid_auth');
      app.rateLimit(method);
      const result = this.call(app, method, token === app.appToken, params);
      app.record(call);
      answer(res, 200, { ok: true, ...result });
    } catch (error) {
      if (!(error instanceof SlackApiError)) throw error;
      call.status = error.status;
      call.error = error.error;
      app?.record(call);
      answer(
        res,
        error.status,
        { ok: false, error: error.error },
        error.retryAfter !== undefined ? { 'retry-after': String(error.retryAfter) } : {},
      );
    }
  }

  private call(app: FakeSlackApp, method: string, appLevel: boolean, params: Record<string, unknown>): Record<string, unknown> {
    if (method === 'apps.connections.open') {
      if (!appLevel) throw new SlackApiError('not_allowed_token_type');
      const ticket = randomUUID();
      this.tickets.set(ticket, app);
      return { url: `${this.origin.replace(/^http/, 'ws')}/link/?ticket=${ticket}&app_id=${app.appId}` };
    }
    if (appLevel) throw new SlackApiError('not_allowed_token_type');
    switch (method) {
      case 'auth.test':
        return {
          url: 'https://fake-workspace.slack.com/',
          team: 'Fake Workspace',
          user: app.name,
          team_id: this.teamId,
          user_id: app.botUserId,
          bot_id: app.botId,
          is_enterprise_install: false,
        };
      case 'chat.postMessage': {
        const result = this.postAndEcho(app, params);
        return result;
      }
      case 'chat.update':
        return app.update(params);
      case 'files.getUploadURLExternal':
        return this.files.getUploadURLExternal(params);
      case 'files.completeUploadExternal': {
        // A conversation's id: a user id does not name a DM here (conversations.open gives the DM's id).
        const channel = typeof params.channel_id === 'string' ? params.channel_id : undefined;
        if (channel !== undefined && !app.conversations.has(channel)) throw new SlackApiError('channel_not_found');
        return this.files.completeUploadExternal(params, channel);
      }
      case 'conversations.open': {
        const user = typeof params.users === 'string' ? params.users : '';
        if (!this.users.has(user) || user.includes(',')) throw new SlackApiError('user_not_found');
        let im = [...app.conversations.values()].find((c) => c.type === 'im' && c.user === user);
        if (!im) {
          im = { id: id('D'), type: 'im', user };
          app.conversations.set(im.id, im);
        }
        return { channel: { id: im.id } };
      }
      case 'conversations.info':
        return { channel: app.conversationInfo(params) };
      case 'users.info': {
        const user = this.users.get(String(params.user));
        if (!user) throw new SlackApiError('user_not_found');
        return { user: { id: user.id, team_id: user.teamId, name: user.name, real_name: user.realName, is_bot: false } };
      }
      default:
        throw new SlackApiError('unknown_method');
    }
  }

  /** Posts, and (as Slack does for `message.*` subscribers) sends the bot's own message back as an event. */
  private postAndEcho(app: FakeSlackApp, params: Record<string, unknown>): Record<string, unknown> {
    const result = app.postMessage(params);
    const message = app.posted.at(-1)!;
    setImmediate(() => {
      if (!this.closed) this.echoOwnMessage(app, message);
    });
    return result;
  }
}

/** Slack's request signature: `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<body>` with the app's signing secret. */
export function slackSignature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The body's parameters: JSON, or a URL-encoded form (whose object values are JSON strings, as WebClient sends them). */
async function readParams(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  if (!body) return {};
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('JSON body must be an object');
    return parsed as Record<string, unknown>;
  }
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(body));
  throw new Error(`unsupported content type "${type}"`);
}
