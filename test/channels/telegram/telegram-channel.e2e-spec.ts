import type { ChannelDefinition } from '../../../src/plugin-sdk';
import { telegramChannel } from '../../../src/bundled-plugins/telegram/telegram-channel';
import { FakeTelegramServer, type FakeBot } from '../../support/fake-telegram';
import { replyWith, ScriptedChannelContext } from '../../support/scripted-channel-context';
import { waitUntil } from '../../support/wait-until';

/**
 * The Telegram channel plugin against the fake Bot API, with the gateway's side scripted: the real grammY client,
 * long polling, the update journal, streamed edits, splitting, 429s, health. (The whole gateway over the same fake:
 * telegram-gateway.e2e-spec.ts.)
 */
describe('telegram channel plugin', () => {
  let telegram: FakeTelegramServer;
  let channel: ChannelDefinition | undefined;
  const ann = FakeTelegramServer.user('Ann');

  beforeEach(async () => {
    telegram = await new FakeTelegramServer().start();
  });
  afterEach(async () => {
    await channel?.stop?.();
    channel = undefined;
    await telegram.close();
  });

  async function startWith(context: ScriptedChannelContext): Promise<ChannelDefinition> {
    channel = telegramChannel({ pollTimeoutSeconds: 1, chatIntervalMs: 100 });
    await channel.start(context);
    return channel;
  }

  const section = (bot: FakeBot, extra: Record<string, unknown> = {}) => ({ botToken: bot.token, apiRoot: telegram.apiRoot, ...extra });

  it('hands a DM to the gateway and streams the reply into one message by edits, threaded to the question', async () => {
    const bot = telegram.addBot('stream_bot');
    const context = new ScriptedChannelContext(section(bot), () =>
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
    const asked = telegram.dm(bot, ann, 'hi there');
    const [reply] = await telegram.waitForMessages(bot, ann.id, (m) => m[0]?.text === 'Hello world & <friends>');
    expect(context.inbounds).toEqual([
      expect.objectContaining({
        accountId: 'default',
        peer: { kind: 'dm', id: String(ann.id) },
        sender: expect.objectContaining({ id: String(ann.id), name: 'Ann', username: 'ann' }),
        messageId: String(asked.message_id),
        text: 'hi there',
        mentionsBot: true,
      }),
    ]);
    expect(reply.replyTo).toBe(asked.message_id);
    expect(reply.versions[0]).toBe('Hel');
    expect(reply.versions.at(-1)).toBe('Hello <b>world</b> &amp; &lt;friends&gt;');
    expect(reply.versions.length).toBeGreaterThanOrEqual(2);
    expect(bot.botMessages()).toHaveLength(1);
    expect(telegram.calls(bot, 'sendChatAction')[0].params).toMatchObject({ chat_id: ann.id, action: 'typing' });
    expect(context.lastHealth('default')).toEqual({ accountId: 'default', state: 'connected' });
  });

  it('splits a long reply at paragraph boundaries into messages within 4096 characters', async () => {
    const bot = telegram.addBot('long_bot');
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'word '.repeat(60).trim()}.`);
    const long = paragraphs.join('\n\n');
    await startWith(new ScriptedChannelContext(section(bot), () => replyWith([{ type: 'final', text: long }])));
    telegram.dm(bot, ann, 'tell me everything');
    const messages = await telegram.waitForMessages(bot, ann.id, (m) => m.map((x) => x.text).join('\n\n') === long);
    expect(messages.length).toBeGreaterThanOrEqual(3);
    for (const message of messages) {
      expect(message.text.length).toBeLessThanOrEqual(4096);
      expect(message.text).toMatch(/^Paragraph \d+ /);
      expect(message.text).toMatch(/\.$/);
    }
  });

  it('tells the gateway whether a group message mentions the bot, and answers a forum topic in its thread', async () => {
    const bot = telegram.addBot('group_bot');
    const group = bot.addChat(FakeTelegramServer.group('Team', { forum: true }));
    const context = new ScriptedChannelContext(section(bot), (m) =>
      m.mentionsBot ? replyWith([{ type: 'final', text: 'on it' }]) : { kind: 'ignored', reason: 'not mentioned' },
    );
    await startWith(context);
    telegram.groupMessage(bot, group, ann, 'chatting among us', { threadId: 3 });
    const asked = telegram.groupMessage(bot, group, ann, 'can you help?', { mention: true, threadId: 3 });
    const [reply] = await telegram.waitForMessages(bot, group.id, (m) => m.length === 1);
    expect(reply).toMatchObject({ text: 'on it', threadId: 3, replyTo: asked.message_id });
    expect(context.inbounds.map((m) => [m.peer, m.threadId, m.mentionsBot])).toEqual([
      [{ kind: 'group', id: String(group.id) }, '3', false],
      [{ kind: 'group', id: String(group.id) }, '3', true],
    ]);
    // A reply to the bot's message counts as addressing it.
    telegram.groupMessage(bot, group, ann, 'thanks', { replyTo: reply.messageId, threadId: 3 });
    await telegram.waitForMessages(bot, group.id, (m) => m.length === 2);
    expect(context.inbounds.at(-1)).toMatchObject({ mentionsBot: true, replyToId: String(reply.messageId) });
  });

  it('never hands the bot its own messages', async () => {
    const bot = telegram.addBot('self_bot');
    const context = new ScriptedChannelContext(section(bot));
    await startWith(context);
    const group = bot.addChat(FakeTelegramServer.group('Echoes'));
    bot.receive({ from: bot.user, chat: group, text: 'my own words' });
    telegram.dm(bot, ann, 'after');
    await telegram.waitForMessages(bot, ann.id, (m) => m.length === 1);
    expect(context.inbounds.map((m) => m.text)).toEqual(['after']);
  });

  it('sends the pairing text as it is, escaped', async () => {
    const bot = telegram.addBot('pair_bot');
    await startWith(new ScriptedChannelContext(section(bot), () => ({ kind: 'pairing', text: 'Your code is <AB12CD34> & valid 1 hour' })));
    telegram.dm(bot, ann, 'hello?');
    const [message] = await telegram.waitForMessages(bot, ann.id, (m) => m.length === 1);
    expect(message.text).toBe('Your code is <AB12CD34> & valid 1 hour');
  });

  it('waits out a 429 for its retry_after and delivers', async () => {
    const bot = telegram.addBot('flood_bot');
    const context = new ScriptedChannelContext(section(bot));
    await startWith(context);
    bot.failNext('sendMessage', 1, 1);
    telegram.dm(bot, ann, 'busy?');
    const [message] = await telegram.waitForMessages(bot, ann.id, (m) => m.length === 1);
    expect(message.text).toBe('echo: busy?');
    expect(telegram.calls(bot, 'sendMessage').map((c) => c.ok)).toEqual([false, true]);
    expect(context.logs).toContainEqual(expect.stringMatching(/sendMessage retried in 1000 ms \(429 retry after 1s\)/));
  });

  it("reports a rejected token as the account's failure without the token", async () => {
    const context = new ScriptedChannelContext({ botToken: '999:not-a-real-token', apiRoot: telegram.apiRoot });
    await startWith(context);
    await waitUntil(() => context.lastHealth('default')?.state === 'failed');
    const health = context.lastHealth('default')!;
    expect(health.error).toBe('account default: token rejected by Telegram (401 Unauthorized)');
    expect(JSON.stringify([context.healths, context.logs])).not.toContain('not-a-real-token');
  });

  it('runs one bot per account, each message marked with its account', async () => {
    const work = telegram.addBot('work_bot');
    const home = telegram.addBot('home_bot');
    const context = new ScriptedChannelContext(
      { apiRoot: telegram.apiRoot, accounts: { work: { botToken: work.token }, home: { botToken: home.token } } },
      (m) => replyWith([{ type: 'final', text: `${m.accountId} here` }]),
    );
    await startWith(context);
    telegram.dm(work, ann, 'to work');
    telegram.dm(home, ann, 'to home');
    await telegram.waitForMessages(work, ann.id, (m) => m[0]?.text === 'work here');
    await telegram.waitForMessages(home, ann.id, (m) => m[0]?.text === 'home here');
    expect(context.inbounds.map((m) => [m.accountId, m.text]).sort()).toEqual([
      ['home', 'to home'],
      ['work', 'to work'],
    ]);
  });

  it('keeps the update offset across a restart: nothing replayed, nothing skipped', async () => {
    const bot = telegram.addBot('durable_bot');
    const first = new ScriptedChannelContext(section(bot));
    await startWith(first);
    telegram.dm(bot, ann, 'one');
    await telegram.waitForMessages(bot, ann.id, (m) => m.length === 1);
    await channel!.stop?.();
    // While the gateway is down, a message comes; Telegram still holds "one" until an offset passes it.
    telegram.dm(bot, ann, 'two');
    const second = new ScriptedChannelContext(section(bot), undefined, first.stateDir);
    await startWith(second);
    await telegram.waitForMessages(bot, ann.id, (m) => m.length === 2);
    expect(second.inbounds.map((m) => m.text)).toEqual(['two']);
    expect(bot.botMessages(ann.id).map((m) => m.text)).toEqual(['echo: one', 'echo: two']);
  });

  it('says announces through send, split and threaded, and reports what Telegram refused', async () => {
    const bot = telegram.addBot('announce_bot');
    await startWith(new ScriptedChannelContext(section(bot)));
    telegram.dm(bot, ann, 'hi');
    await telegram.waitForMessages(bot, ann.id, (m) => m.length === 1);
    const text = `${'a'.repeat(3000)}\n\n${'b'.repeat(3000)}`;
    const receipt = await channel!.send({
      sessionKey: 'agent:main:main',
      accountId: 'default',
      peer: { kind: 'dm', id: String(ann.id) },
      text,
    });
    expect(receipt).toMatchObject({ status: 'delivered', messageId: expect.any(String) });
    expect(
      bot
        .botMessages(ann.id)
        .slice(1)
        .map((m) => m.text.length),
    ).toEqual([3000, 3000]);
    const refused = await channel!.send({
      sessionKey: 'agent:main:main',
      accountId: 'default',
      peer: { kind: 'dm', id: '12345' },
      text: 'hello',
    });
    expect(refused).toEqual({ status: 'failed', detail: 'account default: sendMessage failed: 400 Bad Request: chat not found' });
    await expect(
      channel!.send({ sessionKey: 'agent:main:main', accountId: 'nope', peer: { kind: 'dm', id: '1' }, text: 'x' }),
    ).resolves.toMatchObject({
      status: 'failed',
    });
  });
});
