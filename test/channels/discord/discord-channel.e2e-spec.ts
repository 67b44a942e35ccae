import type { ChannelDefinition } from '../../../src/plugin-sdk';
import { discordChannel } from '../../../src/bundled-plugins/discord/discord-channel';
import { FakeDiscordServer, type FakeDiscordBot } from '../../support/fake-discord';
import { replyWith, ScriptedChannelContext as ScriptedContext } from '../../support/scripted-channel-context';
import { waitUntil } from '../../support/wait-until';

class ScriptedChannelContext extends ScriptedContext {
  override readonly channelId = 'discord';
}

/**
 * The Discord channel plugin against the fake Discord, with the gateway's side scripted: the real discord.js client
 * over REST and the Gateway, streamed edits, splitting, guild rules, 429s, resume, health. (The whole gateway over the
 * same fake: discord-gateway.e2e-spec.ts.)
 */
describe('discord channel plugin', () => {
  let discord: FakeDiscordServer;
  let channel: ChannelDefinition | undefined;
  const ann = FakeDiscordServer.user('Ann');

  beforeEach(async () => {
    discord = await new FakeDiscordServer().start();
  });
  afterEach(async () => {
    await channel?.stop?.();
    channel = undefined;
    await discord.close();
  });

  async function startWith(context: ScriptedChannelContext): Promise<ChannelDefinition> {
    channel = discordChannel({ chatIntervalMs: 100 });
    await channel.start(context);
    return channel;
  }

  async function connected(context: ScriptedChannelContext, accountId = 'default'): Promise<void> {
    await waitUntil(() => context.lastHealth(accountId)?.state === 'connected');
  }

  const section = (bot: FakeDiscordBot, extra: Record<string, unknown> = {}) => ({ token: bot.token, api: discord.api, ...extra });

  it('hands a DM to the gateway and streams the reply into one message by edits, as a reply to the question', async () => {
    const bot = discord.addBot('Helper');
    const context = new ScriptedChannelContext(section(bot), () =>
      replyWith(
        [
          { type: 'progress', text: 'Hel' },
          { type: 'progress', text: 'Hello wor' },
          { type: 'final', text: 'Hello **world**' },
        ],
        250,
      ),
    );
    await startWith(context);
    await connected(context);
    const asked = discord.dm(bot, ann, 'hi there');
    const [reply] = await discord.waitForMessages(bot, asked.channel_id, (m) => m[0]?.content === 'Hello **world**');
    expect(context.inbounds).toEqual([
      {
        accountId: 'default',
        peer: { kind: 'dm', id: ann.id },
        sender: { id: ann.id, name: 'Ann', username: 'ann' },
        messageId: asked.id,
        text: 'hi there',
        mentionsBot: true,
      },
    ]);
    expect(reply.replyTo).toBe(asked.id);
    expect(reply.versions[0]).toBe('Hel');
    expect(reply.versions.length).toBeGreaterThanOrEqual(2);
    expect(discord.botMessages(bot)).toHaveLength(1);
    expect(bot.calls.some((c) => c.method === 'POST' && c.route === `/channels/${asked.channel_id}/typing`)).toBe(true);
    // No pings from the agent's text, nor of the person answered.
    expect(bot.calls.find((c) => c.method === 'POST' && c.route.endsWith('/messages'))?.body).toMatchObject({
      allowed_mentions: { parse: [], replied_user: false },
      message_reference: { message_id: asked.id, fail_if_not_exists: false },
    });
  });

  it('splits a long reply at paragraph boundaries into messages within 2000 characters', async () => {
    const bot = discord.addBot('Long');
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'word '.repeat(60).trim()}.`);
    const long = paragraphs.join('\n\n');
    const context = new ScriptedChannelContext(section(bot), () => replyWith([{ type: 'final', text: long }]));
    await startWith(context);
    await connected(context);
    const asked = discord.dm(bot, ann, 'tell me everything');
    const messages = await discord.waitForMessages(bot, asked.channel_id, (m) => m.map((x) => x.content).join('\n\n') === long);
    expect(messages.length).toBeGreaterThanOrEqual(2);
    for (const message of messages) {
      expect(message.content.length).toBeLessThanOrEqual(2000);
      expect(message.content).toMatch(/^Paragraph \d+ [\s\S]*\.$/);
    }
    expect(messages[0].replyTo).toBe(asked.id);
    expect(messages.slice(1).every((m) => m.replyTo === undefined)).toBe(true);
  });

  it('marks guild messages with guild, channel and mention, and answers a thread in the thread', async () => {
    const bot = discord.addBot('Guildy');
    const { guild, channels } = discord.addGuild('Team', [bot], ['general']);
    const context = new ScriptedChannelContext(section(bot), (m) =>
      m.mentionsBot ? replyWith([{ type: 'final', text: 'on it' }]) : { kind: 'ignored', reason: 'not mentioned' },
    );
    await startWith(context);
    await connected(context);
    const thread = discord.addThread(channels[0], 'help thread');
    discord.guildMessage(thread, ann, 'chatting among us');
    const asked = discord.guildMessage(thread, ann, 'can you help?', { mention: bot });
    const [reply] = await discord.waitForMessages(bot, thread.id, (m) => m.length === 1);
    expect(reply).toMatchObject({ content: 'on it', replyTo: asked.id });
    expect(context.inbounds.map((m) => [m.peer, m.guildId, m.threadId, m.mentionsBot])).toEqual([
      [{ kind: 'channel', id: channels[0].id }, guild.id, thread.id, false],
      [{ kind: 'channel', id: channels[0].id }, guild.id, thread.id, true],
    ]);
    // A reply to the bot's message addresses it too.
    discord.guildMessage(thread, ann, 'thanks', { replyTo: reply.id });
    await discord.waitForMessages(bot, thread.id, (m) => m.length === 2);
    expect(context.inbounds.at(-1)).toMatchObject({ mentionsBot: true, replyToId: reply.id });
  });

  it('applies guilds.<id>.channels: a listed channel carries its mention gating, an unlisted one is not handed over', async () => {
    const bot = discord.addBot('Ruled');
    const { guild, channels } = discord.addGuild('Team', [bot], ['general', 'random']);
    const guilds = { [guild.id]: { channels: { general: { allow: true, requireMention: false }, [channels[1].id]: { allow: false } } } };
    const context = new ScriptedChannelContext(section(bot, { guilds }));
    await startWith(context);
    await connected(context);
    discord.guildMessage(channels[1], ann, 'in random');
    discord.guildMessage(channels[0], ann, 'in general');
    await discord.waitForMessages(bot, channels[0].id, (m) => m.length === 1);
    expect(context.inbounds.map((m) => [m.text, m.listedGroup])).toEqual([['in general', { requireMention: false }]]);
    expect(context.logs).toContainEqual(expect.stringMatching(/dropped: channel \d+ is not allowed/));
  });

  it("never hands over the bot's own messages, and marks other bots' as bots", async () => {
    const bot = discord.addBot('Self');
    const other = discord.addBot('Other');
    const { channels } = discord.addGuild('Team', [bot, other]);
    const context = new ScriptedChannelContext(section(bot), (m) =>
      m.sender.isBot ? { kind: 'ignored', reason: 'bot' } : replyWith([{ type: 'final', text: 'mine' }]),
    );
    await startWith(context);
    await connected(context);
    discord.guildMessage(channels[0], other.user, 'beep', { mention: bot });
    discord.guildMessage(channels[0], ann, 'hello', { mention: bot });
    await discord.waitForMessages(bot, channels[0].id, (m) => m.length === 1);
    // The bot's reply came back to it over the Gateway (MESSAGE_CREATE of its own message) and was dropped.
    await waitUntil(() => context.logs.some((l) => l.includes("dropped: the bot's own message")));
    expect(context.inbounds.map((m) => [m.text, m.sender.isBot ?? false])).toEqual([
      [`<@${bot.user.id}> beep`, true],
      [`<@${bot.user.id}> hello`, false],
    ]);
  });

  it('waits out a 429 for its retry_after and delivers', async () => {
    const bot = discord.addBot('Busy');
    const context = new ScriptedChannelContext(section(bot));
    await startWith(context);
    await connected(context);
    bot.failNext('POST', '/channels/*/messages', 1, 0.5);
    const asked = discord.dm(bot, ann, 'busy?');
    const [message] = await discord.waitForMessages(bot, asked.channel_id, (m) => m.length === 1);
    expect(message.content).toBe('echo: busy?');
    expect(bot.calls.filter((c) => c.method === 'POST' && c.route.endsWith('/messages')).map((c) => c.status)).toEqual([429, 200]);
    expect(context.logs).toContainEqual(expect.stringMatching(/POST \/channels\/:id\/messages rate limited \(429\), retrying in \d+ ms/));
  });

  it('resumes a dropped Gateway session: the message sent meanwhile is answered once, none lost', async () => {
    const bot = discord.addBot('Steady');
    const context = new ScriptedChannelContext(section(bot));
    await startWith(context);
    await connected(context);
    const first = discord.dm(bot, ann, 'one');
    await discord.waitForMessages(bot, first.channel_id, (m) => m.length === 1);
    expect(discord.dropGateway(bot)).toBe(1);
    discord.dm(bot, ann, 'two');
    await discord.waitForMessages(bot, first.channel_id, (m) => m.length === 2);
    discord.dm(bot, ann, 'three');
    const replies = await discord.waitForMessages(bot, first.channel_id, (m) => m.length === 3);
    expect(replies.map((m) => m.content)).toEqual(['echo: one', 'echo: two', 'echo: three']);
    expect(context.inbounds.map((m) => m.text)).toEqual(['one', 'two', 'three']);
    expect(bot.handshakes).toEqual(['IDENTIFY', 'RESUME']);
    expect(context.healths.map((h) => h.state)).toContain('reconnecting');
    expect(context.lastHealth('default')?.state).toBe('connected');
  });

  it("reports a rejected token as the account's failure without the token", async () => {
    const context = new ScriptedChannelContext({ token: 'MTIz.Gabcde.not-a-real-discord-token', api: discord.api });
    await startWith(context);
    await waitUntil(() => context.lastHealth('default')?.state === 'failed');
    expect(context.lastHealth('default')?.error).toBe('account default: token rejected by Discord (401 Unauthorized)');
    expect(JSON.stringify([context.healths, context.logs])).not.toContain('not-a-real-discord-token');
  });

  it('runs one client per account, each message marked with its account', async () => {
    const work = discord.addBot('Work');
    const home = discord.addBot('Home');
    const context = new ScriptedChannelContext(
      { api: discord.api, accounts: { work: { token: work.token }, home: { token: home.token } } },
      (m) => replyWith([{ type: 'final', text: `${m.accountId} here` }]),
    );
    await startWith(context);
    await connected(context, 'work');
    await connected(context, 'home');
    const toWork = discord.dm(work, ann, 'to work');
    const toHome = discord.dm(home, ann, 'to home');
    await discord.waitForMessages(work, toWork.channel_id, (m) => m[0]?.content === 'work here');
    await discord.waitForMessages(home, toHome.channel_id, (m) => m[0]?.content === 'home here');
    expect(context.inbounds.map((m) => [m.accountId, m.text]).sort()).toEqual([
      ['home', 'to home'],
      ['work', 'to work'],
    ]);
  });

  it('follows two quick reconfigurations to the last one: an account the second removed stays removed', async () => {
    const a1 = discord.addBot('AOne');
    const a2 = discord.addBot('ATwo');
    const b = discord.addBot('B');
    const accounts = (a: FakeDiscordBot, withB: boolean) => ({
      api: discord.api,
      accounts: { a: { token: a.token }, ...(withB ? { b: { token: b.token } } : {}) },
    });
    const context = new ScriptedChannelContext(accounts(a1, true));
    await startWith(context);
    await Promise.all([connected(context, 'a'), connected(context, 'b')]);
    // The first change restarts `a` (a new token); before it is through, the second removes `b`.
    const changedAt = context.healths.length;
    context.change(accounts(a2, true));
    context.change(accounts(a2, false));
    await waitUntil(() => discord.liveConnections(a2) > 0 && context.lastHealth('b')?.state === 'stopped');
    await new Promise((r) => setTimeout(r, 1500)); // a late restart of `b` would connect meanwhile
    expect(discord.liveConnections(b)).toBe(0);
    expect(discord.liveConnections(a1)).toBe(0);
    // `b` was stopped once and never started again (the first change, resumed late, must not re-create it).
    expect(
      context.healths
        .slice(changedAt)
        .filter((h) => h.accountId === 'b')
        .map((h) => h.state),
    ).toEqual(['stopped']);
    const asked = discord.dm(a2, ann, 'still there?');
    await discord.waitForMessages(a2, asked.channel_id, (m) => m.length === 1);
  });

  it('says announces through send: to a user by a new DM channel, split; a failure is a receipt', async () => {
    const bot = discord.addBot('Announcer');
    const { channels } = discord.addGuild('Team', [bot]);
    const context = new ScriptedChannelContext(section(bot));
    await startWith(context);
    await connected(context);
    const asked = discord.dm(bot, ann, 'hi');
    await discord.waitForMessages(bot, asked.channel_id, (m) => m.length === 1);
    const text = `${'a'.repeat(1500)}\n\n${'b'.repeat(1500)}`;
    const receipt = await channel!.send({ accountId: 'default', peer: { kind: 'dm', id: ann.id }, text, sessionKey: 'agent:main:main' });
    expect(receipt).toMatchObject({ status: 'delivered', messageId: expect.any(String) });
    expect(
      discord
        .botMessages(bot, asked.channel_id)
        .slice(1)
        .map((m) => m.content.length),
    ).toEqual([1500, 1500]);
    await expect(
      channel!.send({ accountId: 'default', peer: { kind: 'channel', id: channels[0].id }, text: 'news', sessionKey: 'agent:main:main' }),
    ).resolves.toMatchObject({
      status: 'delivered',
    });
    expect(discord.botMessages(bot, channels[0].id).map((m) => m.content)).toEqual(['news']);
    const refused = await channel!.send({
      accountId: 'default',
      peer: { kind: 'channel', id: '42' },
      text: 'hello',
      sessionKey: 'agent:main:main',
    });
    expect(refused).toEqual({ status: 'failed', detail: 'account default: GET /channels/42 failed: 404 Unknown Channel (code 10003)' });
  });
});
