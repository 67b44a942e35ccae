import type { SlackChannel } from '../../../src/bundled-plugins/slack/slack-channel';
import { slackChannel } from '../../../src/bundled-plugins/slack/slack-channel';
import { FakeSlackServer, type FakeSlackApp } from '../../support/fake-slack';
import { replyWith, ScriptedChannelContext as ScriptedContext } from '../../support/scripted-channel-context';
import { waitUntil } from '../../support/wait-until';

class ScriptedChannelContext extends ScriptedContext {
  override readonly channelId = 'slack';
}

/**
 * The Slack channel plugin against the fake Slack, with the gateway's side scripted: the real WebClient and
 * SocketModeClient, the event journal, streamed updates, splitting, 429s, health. (The whole gateway over the same
 * fake: slack-gateway.e2e-spec.ts.)
 */
describe('slack channel plugin', () => {
  let slack: FakeSlackServer;
  let channel: SlackChannel | undefined;

  beforeEach(async () => {
    slack = await new FakeSlackServer({ ackTimeoutMs: 500 }).start();
  });
  afterEach(async () => {
    await channel?.stop?.();
    channel = undefined;
    await slack.close();
  });

  async function startWith(context: ScriptedChannelContext): Promise<SlackChannel> {
    channel = slackChannel({
      chatIntervalMs: 100,
      retryConfig: { retries: 3, minTimeout: 10, maxTimeout: 100 },
      socketPingTimeoutMs: 1000,
    });
    await channel.start(context);
    return channel;
  }

  const section = (app: FakeSlackApp, extra: Record<string, unknown> = {}) => ({
    botToken: app.botToken,
    appToken: app.appToken,
    apiUrl: slack.apiUrl,
    ...extra,
  });
  const connected = (context: ScriptedChannelContext, accountId = 'default') =>
    waitUntil(() => context.lastHealth(accountId)?.state === 'connected');

  it('hands a DM to the gateway and streams the reply into one message by chat.update, in mrkdwn', async () => {
    const app = slack.addApp('stream');
    const ann = slack.user('Ann');
    const context = new ScriptedChannelContext(section(app), () =>
      replyWith(
        [
          { type: 'progress', text: 'Hel' },
          { type: 'progress', text: 'Hello wor' },
          { type: 'final', text: 'Hello **world** & <friends>' },
        ],
        250,
      ),
    );
    await startWith(context);
    await connected(context);
    const asked = slack.dm(app, ann, 'hi there');
    const [reply] = await slack.waitForMessages(app, ann.id, (m) => m[0]?.text === 'Hello *world* &amp; &lt;friends&gt;');
    expect(context.inbounds).toEqual([
      expect.objectContaining({
        accountId: 'default',
        peer: { kind: 'dm', id: ann.id },
        teamId: slack.teamId,
        sender: { id: ann.id },
        messageId: asked.ts,
        text: 'hi there',
        mentionsBot: true,
      }),
    ]);
    expect(reply.threadTs).toBeUndefined();
    expect(reply.versions[0]).toBe('Hel');
    expect(reply.versions.length).toBeGreaterThanOrEqual(2);
    expect(slack.calls(app, 'chat.update').length).toBe(reply.versions.length - 1);
    expect(app.botMessages()).toHaveLength(1);
    // Slack sent the bot's own post back as an event: acknowledged, never handed to the gateway.
    const answered = (): boolean => {
      const events = new Set(app.envelopes.map((e) => e.payload.event_id));
      const acked = new Set(app.envelopes.filter((e) => app.acked.has(e.envelope_id)).map((e) => e.payload.event_id));
      return events.size >= 2 && acked.size === events.size;
    };
    await slack.waitFor(app, answered);
    expect(context.inbounds).toHaveLength(1);
  });

  it('splits a long reply at paragraph boundaries into thread messages within 4000 characters', async () => {
    const app = slack.addApp('long');
    const general = slack.addChannel(app, 'general');
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'word '.repeat(60).trim()}.`);
    const long = paragraphs.join('\n\n');
    const context = new ScriptedChannelContext(section(app), () => replyWith([{ type: 'final', text: long }]));
    await startWith(context);
    await connected(context);
    const asked = slack.channelMessage(app, general, slack.user('Bo'), 'tell me everything', { mention: true });
    const messages = await slack.waitForMessages(app, general.id, (m) => m.map((x) => x.text).join('\n\n') === long);
    expect(messages.length).toBeGreaterThanOrEqual(3);
    for (const message of messages) {
      expect(message.text.length).toBeLessThanOrEqual(4000);
      expect(message.text).toMatch(/^Paragraph \d+ [\s\S]*\.$/);
      expect(message.threadTs).toBe(asked.ts);
    }
  });

  it('tells the gateway whether a channel message mentions the bot, answers in its thread, and takes a mention once', async () => {
    const app = slack.addApp('mentions');
    const general = slack.addChannel(app, 'general');
    const bo = slack.user('Bo');
    const context = new ScriptedChannelContext(section(app), (m) =>
      m.mentionsBot ? replyWith([{ type: 'final', text: 'on it' }]) : { kind: 'ignored', reason: 'not mentioned' },
    );
    await startWith(context);
    await connected(context);
    slack.channelMessage(app, general, bo, 'chatting among us');
    const asked = slack.channelMessage(app, general, bo, 'can you help?', { mention: true });
    const [reply] = await slack.waitForMessages(app, general.id, (m) => m.length === 1);
    expect(reply).toMatchObject({ text: 'on it', threadTs: asked.ts });
    const followUp = slack.channelMessage(app, general, bo, 'and this?', { mention: true, threadTs: asked.ts });
    await slack.waitForMessages(app, general.id, (m) => m.length === 2);
    // Slack sent each mention twice (message and app_mention): each reached the gateway once.
    expect(context.inbounds.map((m) => [m.peer, m.threadId, m.text, m.mentionsBot])).toEqual([
      [{ kind: 'channel', id: general.id }, undefined, 'chatting among us', false],
      [{ kind: 'channel', id: general.id }, undefined, 'can you help?', true],
      [{ kind: 'channel', id: general.id }, asked.ts, 'and this?', true],
    ]);
    expect(app.botMessages(general.id)[1].threadTs).toBe(asked.ts);
    expect(followUp.thread_ts).toBe(asked.ts);
  });

  it("marks another bot's message as a bot's, and never hands over the bot's own", async () => {
    const app = slack.addApp('bots');
    const general = slack.addChannel(app, 'general');
    const context = new ScriptedChannelContext(section(app), () => ({ kind: 'ignored', reason: 'test' }));
    await startWith(context);
    await connected(context);
    slack.otherBotMessage(app, general, 'beep');
    slack.echoOwnMessage(app, { channel: general.id, ts: '1700000001.000100', text: 'my own words', versions: [], mrkdwn: true });
    slack.channelMessage(app, general, slack.user('Cy'), 'after');
    await waitUntil(() => context.inbounds.length === 2);
    expect(context.inbounds.map((m) => [m.text, m.sender.isBot ?? false])).toEqual([
      ['beep', true],
      ['after', false],
    ]);
  });

  it('answers a redelivered event once: after a lost acknowledgement, a reconnect, and a restart', async () => {
    const app = slack.addApp('durable');
    const ann = slack.user('Ann');
    const first = new ScriptedChannelContext(section(app));
    await startWith(first);
    await connected(first);
    slack.dm(app, ann, 'once');
    await slack.waitForMessages(app, ann.id, (m) => m.length === 1);
    const eventId = app.envelopes[0].payload.event_id;
    slack.redeliver(app, eventId);
    slack.requestReconnect(app);
    await waitUntil(() => slack.calls(app, 'apps.connections.open').length === 2 && slack.connections(app) === 1);
    slack.redeliver(app, eventId, 'connection_lost');
    await channel!.stop!();
    const second = new ScriptedChannelContext(section(app), undefined, first.stateDir);
    await startWith(second);
    await connected(second);
    const again = slack.redeliver(app, eventId);
    slack.dm(app, ann, 'twice');
    await slack.waitForMessages(app, ann.id, (m) => m.length === 2);
    expect(app.acked.has(again.envelope_id)).toBe(true);
    expect(app.botMessages(ann.id).map((m) => m.text)).toEqual(['echo: once', 'echo: twice']);
    expect([...first.inbounds, ...second.inbounds].map((m) => m.text)).toEqual(['once', 'twice']);
  });

  it('waits out a 429 for its Retry-After and delivers', async () => {
    const app = slack.addApp('busy');
    const context = new ScriptedChannelContext(section(app));
    await startWith(context);
    await connected(context);
    app.failNext('chat.postMessage', 1, 1);
    const ann = slack.user('Ann');
    slack.dm(app, ann, 'busy?');
    const [message] = await slack.waitForMessages(app, ann.id, (m) => m.length === 1);
    expect(message.text).toBe('echo: busy?');
    expect(slack.calls(app, 'chat.postMessage').map((c) => c.status)).toEqual([429, 200]);
    expect(context.logs).toContainEqual(expect.stringMatching(/chat\.postMessage rate limited, retried in 1 s/));
  });

  it("reports a rejected bot or app token as the account's failure, without the token", async () => {
    const app = slack.addApp('tokens');
    const badBot = new ScriptedChannelContext({ botToken: 'xoxb-not-a-real-token', appToken: app.appToken, apiUrl: slack.apiUrl });
    await startWith(badBot);
    await waitUntil(() => badBot.lastHealth('default')?.state === 'failed');
    expect(badBot.lastHealth('default')?.error).toBe('account default: token rejected by Slack (invalid_auth)');
    await channel!.stop!();
    const badApp = new ScriptedChannelContext({ botToken: app.botToken, appToken: 'xapp-1-not-real', apiUrl: slack.apiUrl });
    await startWith(badApp);
    await waitUntil(() => badApp.lastHealth('default')?.state === 'failed');
    expect(badApp.lastHealth('default')?.error).toBe('account default: app token rejected by Slack (invalid_auth)');
    expect(JSON.stringify([badBot.healths, badBot.logs, badApp.healths, badApp.logs])).not.toMatch(/not-a-real-token|xapp-1-not-real/);
    const missing = new ScriptedChannelContext({ botToken: app.botToken, apiUrl: slack.apiUrl });
    await channel!.stop!();
    await startWith(missing);
    expect(missing.lastHealth('default')).toEqual({
      accountId: 'default',
      state: 'failed',
      error: 'account default: no channels.slack.appToken (Socket Mode needs the app-level token)',
    });
  });

  it('runs one app per account, each message marked with its account', async () => {
    const work = slack.addApp('work');
    const home = slack.addApp('home');
    const context = new ScriptedChannelContext(
      {
        apiUrl: slack.apiUrl,
        accounts: {
          work: { botToken: work.botToken, appToken: work.appToken },
          home: { botToken: home.botToken, appToken: home.appToken },
        },
      },
      (m) => replyWith([{ type: 'final', text: `${m.accountId} here` }]),
    );
    await startWith(context);
    await Promise.all([connected(context, 'work'), connected(context, 'home')]);
    const ann = slack.user('Ann');
    slack.dm(work, ann, 'to work');
    slack.dm(home, ann, 'to home');
    await slack.waitForMessages(work, ann.id, (m) => m[0]?.text === 'work here');
    await slack.waitForMessages(home, ann.id, (m) => m[0]?.text === 'home here');
    expect(context.inbounds.map((m) => [m.accountId, m.text]).sort()).toEqual([
      ['home', 'to home'],
      ['work', 'to work'],
    ]);
  });

  it('follows two quick reconfigurations to the last one: an account the second removed stays removed', async () => {
    const a1 = slack.addApp('a-one');
    const a2 = slack.addApp('a-two');
    const b = slack.addApp('b');
    const accounts = (a: FakeSlackApp, withB: boolean) => ({
      apiUrl: slack.apiUrl,
      accounts: {
        a: { botToken: a.botToken, appToken: a.appToken },
        ...(withB ? { b: { botToken: b.botToken, appToken: b.appToken } } : {}),
      },
    });
    const context = new ScriptedChannelContext(accounts(a1, true));
    await startWith(context);
    await Promise.all([connected(context, 'a'), connected(context, 'b')]);
    // The first change restarts `a` (new tokens); before it is through, the second removes `b`.
    const changedAt = context.healths.length;
    context.change(accounts(a2, true));
    context.change(accounts(a2, false));
    await waitUntil(() => slack.connections(a2) > 0 && context.lastHealth('b')?.state === 'stopped');
    await new Promise((r) => setTimeout(r, 1500)); // a late restart of `b` would connect meanwhile
    expect(slack.connections(b)).toBe(0);
    expect(slack.connections(a1)).toBe(0);
    // `b` was stopped once and never started again (the first change, resumed late, must not re-create it).
    expect(
      context.healths
        .slice(changedAt)
        .filter((h) => h.accountId === 'b')
        .map((h) => h.state),
    ).toEqual(['stopped']);
    const ann = slack.user('Ann');
    slack.dm(a2, ann, 'still there?');
    await slack.waitForMessages(a2, ann.id, (m) => m.length === 1);
  });

  it('says announces through send, split and threaded, and reports what Slack refused', async () => {
    const app = slack.addApp('announce');
    const ann = slack.user('Ann');
    const context = new ScriptedChannelContext(section(app));
    await startWith(context);
    await connected(context);
    slack.dm(app, ann, 'hi');
    await slack.waitForMessages(app, ann.id, (m) => m.length === 1);
    const text = `${'a'.repeat(3000)}\n\n${'b'.repeat(3000)}`;
    const receipt = await channel!.send({ accountId: 'default', peer: { kind: 'dm', id: ann.id }, text, sessionKey: 'agent:main:main' });
    expect(receipt).toMatchObject({ status: 'delivered', messageId: expect.any(String) });
    expect(
      app
        .botMessages(ann.id)
        .slice(1)
        .map((m) => m.text.length),
    ).toEqual([3000, 3000]);
    const refused = await channel!.send({
      accountId: 'default',
      peer: { kind: 'channel', id: 'C0NOWHERE' },
      text: 'hello',
      sessionKey: 'agent:main:main',
    });
    expect(refused).toEqual({ status: 'failed', detail: 'account default: Slack refused the call (channel_not_found)' });
    await expect(
      channel!.send({ accountId: 'nope', peer: { kind: 'dm', id: '1' }, text: 'x', sessionKey: 'agent:main:main' }),
    ).resolves.toMatchObject({
      status: 'failed',
    });
  });
});
