import type { Server } from 'node:http';
import { telegramChannel, type TelegramChannel } from '../../../src/bundled-plugins/telegram/telegram-channel';
import { FakeTelegramServer, type FakeBot } from '../../support/fake-telegram';
import { ScriptedChannelContext } from '../../support/scripted-channel-context';
import { serveTelegramWebhooks } from '../../support/telegram-webhook-routes';

/**
 * The Telegram channel plugin in webhook mode against the fake Bot API (the real grammY client): `setWebhook`
 * instead of polling, posts checked by their secret token, each update journaled before its post is answered and
 * answered once, and hot switches between polling and webhook. The plugin's routes are served by test support that
 * does what the gateway's plugin routes do (precheck, then the handler); the whole gateway: telegram-webhook-gateway.
 */
describe('telegram channel plugin in webhook mode', () => {
  let telegram: FakeTelegramServer;
  let routes: Server;
  let routesRoot: string;
  let channel: TelegramChannel | undefined;
  const ann = FakeTelegramServer.user('Ann');
  const secret = 'hook_secret-0123456789';

  beforeEach(async () => {
    telegram = await new FakeTelegramServer({ webhookRetryMs: 100 }).start();
    ({ server: routes, url: routesRoot } = await serveTelegramWebhooks(() => channel));
  });
  afterEach(async () => {
    await channel?.stop?.();
    channel = undefined;
    await telegram.close();
    routes.closeAllConnections();
    await new Promise((resolve) => routes.close(resolve));
  });

  const routesUrl = (): string => routesRoot;
  const polling = (bot: FakeBot, extra: Record<string, unknown> = {}) => ({ botToken: bot.token, apiRoot: telegram.apiRoot, ...extra });
  const webhook = (bot: FakeBot, extra: Record<string, unknown> = {}) =>
    polling(bot, { webhookUrl: `${routesUrl()}/webhook/default`, webhookSecret: secret, ...extra });

  async function startWith(context: ScriptedChannelContext): Promise<TelegramChannel> {
    channel = telegramChannel({ pollTimeoutSeconds: 1, chatIntervalMs: 100 });
    await channel.start(context);
    return channel;
  }

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${routesUrl()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('sets the webhook instead of polling and answers a DM Telegram posts to it', async () => {
    const bot = telegram.addBot('hook_bot');
    const context = new ScriptedChannelContext(webhook(bot));
    await startWith(context);
    await telegram.waitFor(bot, () => bot.webhook, 10_000, 'the webhook to be set');
    const asked = telegram.dm(bot, ann, 'hi by webhook');
    const [reply] = await telegram.waitForMessages(bot, ann.id, (m) => m[0]?.text === 'echo: hi by webhook');
    expect(reply.replyTo).toBe(asked.message_id);
    expect(telegram.calls(bot, 'setWebhook')[0].params).toMatchObject({
      url: `${routesUrl()}/webhook/default`,
      secret_token: secret,
      allowed_updates: ['message', 'channel_post'],
      max_connections: 1,
    });
    expect(telegram.calls(bot, 'getUpdates')).toEqual([]);
    expect(context.inbounds).toHaveLength(1);
    expect(context.lastHealth('default')).toEqual({ accountId: 'default', state: 'connected' });
  });

  it('refuses a post without the secret token or with another one (401), and hands nothing to the gateway', async () => {
    const bot = telegram.addBot('guarded_bot');
    const context = new ScriptedChannelContext(webhook(bot));
    await startWith(context);
    await telegram.waitFor(bot, () => bot.webhook, 10_000, 'the webhook to be set');
    const update = {
      update_id: 9_000_001,
      message: { message_id: 1, date: 0, chat: { id: ann.id, type: 'private' }, from: ann, text: 'forged' },
    };

    const missing = await post('/webhook/default', update);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: 'request refused: the X-Telegram-Bot-Api-Secret-Token header is required' });
    const wrong = await post('/webhook/default', update, { 'x-telegram-bot-api-secret-token': `${secret}x` });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'request refused: the X-Telegram-Bot-Api-Secret-Token header does not match' });
    expect((await post('/webhook/other', update, { 'x-telegram-bot-api-secret-token': secret })).status).toBe(404);

    // A post that carries the secret is what gets through: the forged ones never reached the gateway.
    telegram.dm(bot, ann, 'real');
    await telegram.waitForMessages(bot, ann.id, (m) => m[0]?.text === 'echo: real');
    expect(context.inbounds.map((m) => m.text)).toEqual(['real']);
    expect(context.logs.join('\n')).not.toContain(secret);
  });

  it('answers an update Telegram posts twice (its answer lost) once, before and after its reply', async () => {
    const bot = telegram.addBot('twice_bot');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const context = new ScriptedChannelContext(webhook(bot), (m) => ({
      kind: 'reply',
      runId: 'run-held',
      agentId: 'main',
      sessionKey: 'agent:main:main',
      events: (async function* () {
        await held;
        yield { type: 'final' as const, text: `echo: ${m.text}` };
      })(),
    }));
    await startWith(context);
    await telegram.waitFor(bot, () => bot.webhook, 10_000, 'the webhook to be set');
    telegram.dm(bot, ann, 'once please');
    const first = await telegram.waitFor(bot, () => telegram.webhookPosts.find((p) => p.status === 200), 10_000, 'the first post');
    // Posted again while its reply is still being made, and again once it is answered.
    expect(await telegram.redeliver(bot, first.update)).toBe(200);
    release();
    await telegram.waitForMessages(bot, ann.id, (m) => m[0]?.text === 'echo: once please');
    expect(await telegram.redeliver(bot, first.update)).toBe(200);
    telegram.dm(bot, ann, 'next');
    await telegram.waitForMessages(bot, ann.id, (m) => m[1]?.text === 'echo: next');
    expect(context.inbounds.map((m) => m.text)).toEqual(['once please', 'next']);
    expect(bot.botMessages(ann.id)).toHaveLength(2);
  });

  it('switches from polling to webhook and back on a config change, deleting the webhook when it goes back', async () => {
    const bot = telegram.addBot('switch_bot');
    const context = new ScriptedChannelContext(polling(bot));
    await startWith(context);
    telegram.dm(bot, ann, 'polled');
    await telegram.waitForMessages(bot, ann.id, (m) => m[0]?.text === 'echo: polled');

    context.change(webhook(bot));
    await telegram.waitFor(bot, () => bot.webhook, 10_000, 'the webhook to be set');
    telegram.dm(bot, ann, 'posted');
    await telegram.waitForMessages(bot, ann.id, (m) => m[1]?.text === 'echo: posted');
    expect(telegram.webhookPosts.map((p) => p.update.message?.text)).toEqual(['posted']);

    context.change(polling(bot));
    await telegram.waitFor(bot, () => !bot.webhook || undefined, 10_000, 'the webhook to be deleted');
    expect(telegram.calls(bot, 'deleteWebhook').at(-1)?.params).toMatchObject({ drop_pending_updates: false });
    telegram.dm(bot, ann, 'polled again');
    await telegram.waitForMessages(bot, ann.id, (m) => m[2]?.text === 'echo: polled again');
    expect(context.inbounds.map((m) => m.text)).toEqual(['polled', 'posted', 'polled again']);
    expect(telegram.webhookPosts).toHaveLength(1);
  });

  it('reports an account in webhook mode without a secret as failed, naming the key, and runs the others', async () => {
    const bad = telegram.addBot('nosecret_bot');
    const good = telegram.addBot('fine_bot');
    const context = new ScriptedChannelContext({
      apiRoot: telegram.apiRoot,
      accounts: {
        bad: { botToken: bad.token, webhookUrl: `${routesUrl()}/webhook/bad` },
        good: { botToken: good.token, webhookUrl: `${routesUrl()}/webhook/good`, webhookSecret: secret },
      },
    });
    await startWith(context);
    expect(context.lastHealth('bad')).toEqual({
      accountId: 'bad',
      state: 'failed',
      error: 'account bad: no webhookSecret (channels.telegram.accounts.bad.webhookSecret: webhook mode checks each update with it)',
    });
    await telegram.waitFor(good, () => good.webhook, 10_000, "the good account's webhook");
    expect(telegram.calls(bad)).toEqual([]);
    telegram.dm(good, ann, 'still here');
    await telegram.waitForMessages(good, ann.id, (m) => m[0]?.text === 'echo: still here');
  });

  it('answers once, after a restart, an update whose post was answered but whose reply the shutdown cut short', async () => {
    const bot = telegram.addBot('restart_hook_bot');
    let shutDown!: () => void;
    const shutdown = new Promise<void>((resolve) => (shutDown = resolve));
    const first = new ScriptedChannelContext(webhook(bot), () => ({
      kind: 'reply',
      runId: 'run-cut',
      agentId: 'main',
      sessionKey: 'agent:main:main',
      events: (async function* () {
        yield { type: 'progress' as const, text: 'thinking' };
        await shutdown;
        // What the gateway's run says when the shutdown aborts it.
        yield { type: 'failed' as const, message: 'the gateway is shutting down', status: 'aborted' as const, retryable: true };
      })(),
    }));
    await startWith(first);
    await telegram.waitFor(bot, () => bot.webhook, 10_000, 'the webhook to be set');
    telegram.dm(bot, ann, 'survive this');
    await telegram.waitForMessages(bot, ann.id, (m) => m[0]?.text === 'thinking');
    expect(bot.pendingUpdates()).toEqual([]); // Telegram was told it arrived
    shutDown();
    await channel!.stop!();

    const second = new ScriptedChannelContext(webhook(bot), undefined, first.stateDir);
    await startWith(second);
    const [reply] = await telegram.waitForMessages(bot, ann.id, (m) => m[0]?.text === 'echo: survive this');
    expect(bot.botMessages(ann.id)).toHaveLength(1);
    expect(reply.versions).toEqual(['thinking', 'echo: survive this']);
    expect(second.inbounds.map((m) => m.text)).toEqual(['survive this']);
  });
});
