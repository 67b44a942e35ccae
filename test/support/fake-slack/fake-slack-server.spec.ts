import { SocketModeClient } from '@slack/socket-mode';
import { ErrorCode, LogLevel, WebClient, WebClientEvent, type Logger } from '@slack/web-api';
import { FakeSlackServer, slackSignature } from './fake-slack-server';
import type { SlackEventCallback } from './slack-types';

/** The clients' expected complaints (a refused token) stay out of the test output. */
const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.ERROR,
  setName: () => undefined,
};

/** The fake speaks Slack's Web API and Socket Mode as Slack's own WebClient and SocketModeClient expect them. */
describe('fake Slack server', () => {
  let slack: FakeSlackServer;
  const sockets: SocketModeClient[] = [];

  beforeEach(async () => {
    slack = await new FakeSlackServer({ ackTimeoutMs: 300 }).start();
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.disconnect()));
    await slack.close();
  });

  const web = (token: string): WebClient =>
    new WebClient(token, {
      slackApiUrl: slack.apiUrl,
      logLevel: LogLevel.ERROR,
      retryConfig: { retries: 2, minTimeout: 10, maxTimeout: 50 },
    });
  const socket = (appToken: string): SocketModeClient => {
    const client = new SocketModeClient({
      appToken,
      logger: quiet,
      clientPingTimeout: 200,
      clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } },
    });
    sockets.push(client);
    return client;
  };

  it('answers auth.test for the bot token and invalid_auth / not_allowed_token_type otherwise', async () => {
    const app = slack.addApp('helper');
    await expect(web(app.botToken).auth.test()).resolves.toMatchObject({
      ok: true,
      user_id: app.botUserId,
      bot_id: app.botId,
      team_id: slack.teamId,
    });
    await expect(web('xoxb-nope').auth.test()).rejects.toMatchObject({
      code: ErrorCode.PlatformError,
      data: { ok: false, error: 'invalid_auth' },
    });
    await expect(web(app.appToken).auth.test()).rejects.toMatchObject({ data: { error: 'not_allowed_token_type' } });
    await expect(web(app.botToken).apps.connections.open({})).rejects.toMatchObject({ data: { error: 'not_allowed_token_type' } });
    expect(slack.calls(app, 'auth.test')[0]).toMatchObject({ status: 200, token: app.botToken });
  });

  it('posts (form body), threads and updates messages, and refuses what Slack refuses', async () => {
    const app = slack.addApp('talker');
    const general = slack.addChannel(app, 'general');
    const client = web(app.botToken);
    const posted = await client.chat.postMessage({ channel: general.id, text: 'hello *all*', thread_ts: '1.000100' });
    expect(posted).toMatchObject({ ok: true, channel: general.id, ts: expect.stringMatching(/^\d+\.\d{6}$/) });
    await client.chat.update({ channel: general.id, ts: posted.ts!, text: 'hello again' });
    expect(app.botMessages(general.id)).toEqual([
      expect.objectContaining({ threadTs: '1.000100', text: 'hello again', versions: ['hello *all*', 'hello again'], mrkdwn: true }),
    ]);
    await expect(client.chat.postMessage({ channel: 'C0NOPE', text: 'x' })).rejects.toMatchObject({ data: { error: 'channel_not_found' } });
    await expect(client.chat.postMessage({ channel: general.id, text: 'x'.repeat(40_001) })).rejects.toMatchObject({
      data: { error: 'msg_too_long' },
    });
    await expect(client.chat.update({ channel: general.id, ts: '9.000000', text: 'x' })).rejects.toMatchObject({
      data: { error: 'message_not_found' },
    });
    // A JSON body with the token in the header is read too.
    const response = await fetch(`${slack.apiUrl}conversations.info`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.botToken}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: general.id }),
    });
    expect(await response.json()).toMatchObject({ ok: true, channel: { id: general.id, is_channel: true, is_private: false } });
  });

  it('answers 429 with Retry-After, which WebClient waits out before calling again', async () => {
    const app = slack.addApp('busy');
    const general = slack.addChannel(app, 'general');
    app.failNext('chat.postMessage', 1, 1);
    const client = web(app.botToken);
    const limited: number[] = [];
    client.on(WebClientEvent.RATE_LIMITED, (seconds: number) => limited.push(seconds));
    await expect(client.chat.postMessage({ channel: general.id, text: 'after the wait' })).resolves.toMatchObject({ ok: true });
    expect(limited).toEqual([1]);
    expect(slack.calls(app, 'chat.postMessage').map((c) => c.status)).toEqual([429, 200]);
  });

  it('connects Socket Mode with the app token: hello, events_api envelopes, acks by envelope id', async () => {
    const app = slack.addApp('socket');
    const ann = slack.user('Ann');
    const client = socket(app.appToken);
    const received: { body: SlackEventCallback; ack: () => Promise<void> }[] = [];
    client.on('message', (args: { body: SlackEventCallback; ack: () => Promise<void> }) => {
      received.push(args);
      void args.ack();
    });
    await client.start();
    const said = slack.dm(app, ann, 'hi bot');
    await slack.waitFor(app, () => app.acked.size === 1);
    expect(received[0].body).toMatchObject({
      type: 'event_callback',
      team_id: slack.teamId,
      api_app_id: app.appId,
      event_id: expect.stringMatching(/^Ev/),
      event: { type: 'message', channel_type: 'im', user: ann.id, text: 'hi bot', ts: said.ts },
    });
    expect(app.envelopes).toHaveLength(1);
    await expect(socket('xapp-1-nope').start()).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
  });

  it('sends an unacknowledged envelope again with retry_attempt and retry_reason, and a mention also as app_mention', async () => {
    const app = slack.addApp('retry');
    const general = slack.addChannel(app, 'general');
    const client = socket(app.appToken);
    const seen: { type: string; retry: number | undefined; reason: string | undefined; eventId: string }[] = [];
    let ackMessages = false;
    client.on('slack_event', (args: { body: SlackEventCallback; retry_num?: number; retry_reason?: string; ack: () => Promise<void> }) => {
      seen.push({ type: args.body.event.type, retry: args.retry_num, reason: args.retry_reason, eventId: args.body.event_id });
      if (args.body.event.type === 'app_mention' || ackMessages) void args.ack();
    });
    await client.start();
    slack.channelMessage(app, general, slack.user('Bo'), 'help', { mention: true });
    await slack.waitFor(app, () => seen.filter((s) => s.type === 'message').length === 2);
    ackMessages = true;
    const messages = seen.filter((s) => s.type === 'message');
    expect(messages.map((s) => [s.retry, s.reason])).toEqual([
      [0, ''],
      [1, 'timeout'],
    ]);
    expect(messages[0].eventId).toBe(messages[1].eventId);
    expect(seen.filter((s) => s.type === 'app_mention')).toHaveLength(1);
    expect(seen.find((s) => s.type === 'app_mention')?.eventId).not.toBe(messages[0].eventId);
  });

  it('asks the client to reconnect with a disconnect message, and the client opens a new connection', async () => {
    const app = slack.addApp('recycle');
    const client = socket(app.appToken);
    await client.start();
    expect(slack.connections(app)).toBe(1);
    const reconnected = new Promise((resolve) => client.once('connected', resolve));
    slack.requestReconnect(app);
    await reconnected;
    expect(slack.calls(app, 'apps.connections.open')).toHaveLength(2);
    await slack.waitFor(app, () => slack.connections(app) === 1);
  });

  it('posts events to an Events API URL, signed with the signing secret', async () => {
    const app = slack.addApp('http');
    const { createServer } = await import('node:http');
    const got: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.writeHead(got.length === 1 ? 500 : 200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as { port: number }).port;
    slack.useEventsUrl(app, `http://127.0.0.1:${port}/slack/events`);
    slack.dm(app, slack.user('Cy'), 'over http');
    await slack.waitFor(app, () => got.length === 2);
    receiver.close();
    const [first, second] = got;
    const ts = first.headers['x-slack-request-timestamp'] as string;
    expect(first.headers['x-slack-signature']).toBe(slackSignature(app.signingSecret, ts, first.body));
    expect(JSON.parse(first.body)).toMatchObject({ type: 'event_callback', event: { text: 'over http' } });
    expect(second.headers).toMatchObject({ 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_error' });
  });
});
