import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { waitForChange } from '../change-signal';
import { closeServer, listenLocal, localOrigin } from '../fake-http';
import { FakeSlackApp, nextTs } from './fake-slack-app';
import { FakeSlackFiles } from './fake-slack-files';
import { SlackHttpEvents } from './slack-http-events';
import { slackId as id } from './slack-ids';
import { SlackSocketMode } from './slack-socket-mode';
import type {
  PostedMessage,
  RecordedCall,
  SlackConversation,
  SlackEnvelope,
  SlackEventCallback,
  SlackMessageEvent,
  SlackUser,
} from './slack-types';
import { SlackWebApi } from './slack-web-api';

export { slackSignature } from './slack-http-events';

export interface FakeSlackOptions {
  /** How long an envelope may go unacknowledged before Slack sends it again (Slack: a few seconds; default 3000 ms). */
  ackTimeoutMs?: number;
  /** Redeliveries of an unacknowledged envelope (Slack: 3). */
  maxRetries?: number;
}

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
  private readonly apps: FakeSlackApp[] = [];
  private readonly users = new Map<string, SlackUser>();
  private readonly socketMode: SlackSocketMode;
  private readonly httpEvents: SlackHttpEvents;
  private readonly webApi: SlackWebApi;
  private closed = false;
  /** Files people shared and apps uploaded. */
  readonly files = new FakeSlackFiles(() => this.origin);

  constructor(options: FakeSlackOptions = {}) {
    this.socketMode = new SlackSocketMode(options);
    this.httpEvents = new SlackHttpEvents(options);
    this.webApi = new SlackWebApi({
      teamId: this.teamId,
      apps: this.apps,
      users: this.users,
      files: this.files,
      openConnection: (app) => this.socketMode.open(app, this.origin),
      echo: (app, message) =>
        setImmediate(() => {
          if (!this.closed) this.echoOwnMessage(app, message);
        }),
    });
  }

  get apiUrl(): string {
    return `${this.origin}/api/`;
  }

  private get origin(): string {
    return localOrigin(this.server!);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.webApi.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => this.socketMode.upgrade(req, socket, head));
    await listenLocal(this.server);
    return this;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.socketMode.close();
    this.httpEvents.stop();
    await closeServer(this.server);
    await this.httpEvents.close();
  }

  /** A Slack app installed in the workspace, with its bot user. */
  addApp(name: string): FakeSlackApp {
    const app = new FakeSlackApp(name, this.teamId, this.apps.length + 1);
    this.apps.push(app);
    this.socketMode.register(app);
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
    this.httpEvents.use(app, url);
  }

  // ── what people do in Slack ──

  /** A direct message from `user` to the app's bot (in their `im`, made on first use). */
  dm(app: FakeSlackApp, user: SlackUser, text: string, options: { threadTs?: string } = {}): SlackMessageEvent {
    const im = app.imWith(user.id);
    return this.say(app, im, { user: user.id, text, ...(options.threadTs ? { thread_ts: options.threadTs } : {}) });
  }

  /** A DM that shares files (subtype `file_share`, the files on the event, served at their `url_private`). */
  dmFiles(app: FakeSlackApp, user: SlackUser, text: string, files: { name: string; mimetype: string; data: Buffer }[]): SlackMessageEvent {
    const im = app.imWith(user.id);
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
    this.socketMode.send(app, again, false);
    return again;
  }

  /** Asks every connection of the app to reconnect (`{ type: "disconnect", reason }`), as Slack does before recycling one. */
  requestReconnect(app: FakeSlackApp, reason = 'refresh_requested'): void {
    this.socketMode.requestReconnect(app, reason);
  }

  /** The app's open Socket Mode connections. */
  connections(app: FakeSlackApp): number {
    return this.socketMode.connections(app);
  }

  // ── what the test inspects ──

  calls(app: FakeSlackApp, method?: string): RecordedCall[] {
    return app.calls.filter((c) => method === undefined || c.method === method);
  }

  /** Resolves once `predicate` holds (checked at each change of the app), or rejects after `timeoutMs`. */
  waitFor<T>(app: FakeSlackApp, predicate: () => T | undefined | false, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
    return waitForChange((listener) => app.onChange(listener), predicate, timeoutMs, `fake Slack: timed out waiting for ${what}`);
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
    const url = this.httpEvents.urlOf(app);
    if (url) {
      this.httpEvents.post(app, url, callback, 0);
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
    this.socketMode.send(app, envelope, true);
    return callback;
  }
}
