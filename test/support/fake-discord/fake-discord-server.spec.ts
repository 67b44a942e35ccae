import { Client, GatewayIntentBits, Partials, RESTEvents, type Message } from 'discord.js';
import { FakeDiscordServer } from './fake-discord-server';
import { waitUntil } from '../wait-until';

/** The fake, driven by discord.js's real Client: what it sends is what the fake must understand, and back. */
describe('FakeDiscordServer', () => {
  let discord: FakeDiscordServer;
  const clients: Client[] = [];

  beforeEach(async () => {
    discord = await new FakeDiscordServer().start();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.destroy()));
    await discord.close();
  });

  function client(
    intents = [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
      GatewayIntentBits.MessageContent,
    ],
  ): Client {
    const c = new Client({ intents, partials: [Partials.Channel], rest: { api: discord.api } });
    clients.push(c);
    return c;
  }

  async function login(c: Client, token: string): Promise<void> {
    const ready = new Promise<void>((resolve) => c.once('clientReady', () => resolve()));
    await c.login(token);
    await ready;
  }

  function nextMessage(c: Client): Promise<Message> {
    return new Promise((resolve) => c.once('messageCreate', resolve));
  }

  it('logs a bot in over REST and the Gateway: READY with its user, GUILD_CREATE with its guilds', async () => {
    const bot = discord.addBot('Helper');
    const { guild, channels } = discord.addGuild('Team', [bot], ['general', 'help']);
    const c = client();
    await login(c, bot.token);
    expect(c.user?.id).toBe(bot.user.id);
    expect(c.guilds.cache.get(guild.id)?.name).toBe('Team');
    expect(c.channels.cache.get(channels[1].id)).toMatchObject({ name: 'help' });
    expect(bot.handshakes).toEqual(['IDENTIFY']);
    expect(bot.calls.map((x) => `${x.method} ${x.route}`)).toContain('GET /gateway/bot');
  });

  it('rejects an unknown token with 401 {"message":"401: Unauthorized","code":0}', async () => {
    const c = client();
    await expect(c.login('bm90LWEtYm90.Gxxxxx.not-a-real-token-at-all')).rejects.toThrow(/invalid token/i);
    const res = await fetch(`${discord.api}/v10/users/@me`, { headers: { Authorization: 'Bot nope' } });
    expect(res.status).toBe(401);
    await expect(res.json()).resolves.toEqual({ message: '401: Unauthorized', code: 0 });
  });

  it('delivers DMs and guild messages as MESSAGE_CREATE; sends, replies and edits through REST', async () => {
    const bot = discord.addBot('Helper');
    const { channels } = discord.addGuild('Team', [bot]);
    const ann = FakeDiscordServer.user('Ann');
    const c = client();
    await login(c, bot.token);

    const dmSeen = nextMessage(c);
    const dm = discord.dm(bot, ann, 'hello bot');
    const received = await dmSeen;
    expect(received).toMatchObject({ id: dm.id, content: 'hello bot', guildId: null });
    expect(received.channel.isDMBased()).toBe(true);
    const sent = await received.reply({ content: 'hi Ann', allowedMentions: { repliedUser: false } });
    await sent.edit('hi Ann, how can I help?');
    const [message] = discord.botMessages(bot, dm.channel_id);
    expect(message).toMatchObject({ replyTo: dm.id, versions: ['hi Ann', 'hi Ann, how can I help?'] });

    const guildSeen = nextMessage(c);
    discord.guildMessage(channels[0], ann, 'anyone?', { mention: bot });
    const inGuild = await guildSeen;
    expect(inGuild.guildId).toBe(channels[0].guild_id);
    expect(inGuild.mentions.users.has(bot.user.id)).toBe(true);
    if (!inGuild.channel.isSendable()) throw new Error('not sendable');
    await expect(inGuild.channel.sendTyping()).resolves.toBeUndefined();
  });

  it('hides message content from a bot without the MessageContent intent unless it is mentioned', async () => {
    const bot = discord.addBot('Shy');
    const { channels } = discord.addGuild('Team', [bot]);
    const ann = FakeDiscordServer.user('Ann');
    const c = client([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    await login(c, bot.token);
    const plain = nextMessage(c);
    discord.guildMessage(channels[0], ann, 'secret');
    expect((await plain).content).toBe('');
    const mentioned = nextMessage(c);
    discord.guildMessage(channels[0], ann, 'visible', { mention: bot });
    expect((await mentioned).content).toBe(`<@${bot.user.id}> visible`);
  });

  it('answers scripted 429s with retry_after and the rate-limit headers; discord.js waits and retries', async () => {
    const bot = discord.addBot('Busy');
    const ann = FakeDiscordServer.user('Ann');
    const c = client();
    await login(c, bot.token);
    const limited: number[] = [];
    c.rest.on(RESTEvents.RateLimited, (info) => limited.push(info.retryAfter));
    const seen = nextMessage(c);
    discord.dm(bot, ann, 'hi');
    const message = await seen;
    bot.failNext('POST', '/channels/*/messages', 1, 0.3);
    if (!message.channel.isSendable()) throw new Error('not sendable');
    await message.channel.send('after the wait');
    expect(bot.calls.filter((x) => x.method === 'POST' && x.route.endsWith('/messages')).map((x) => x.status)).toEqual([429, 200]);
    expect(limited).toHaveLength(1);
    expect(limited[0]).toBeGreaterThanOrEqual(300);
    const raw = await fetch(`${discord.api}/v10/users/@me`, { headers: { Authorization: `Bot ${bot.token}` } });
    expect(raw.headers.get('x-ratelimit-bucket')).toBeTruthy();
  });

  it('lets a dropped client RESUME: what it missed is replayed, in order, once', async () => {
    const bot = discord.addBot('Steady');
    const ann = FakeDiscordServer.user('Ann');
    const c = client();
    await login(c, bot.token);
    const seen: string[] = [];
    c.on('messageCreate', (m) => seen.push(m.content));
    discord.dm(bot, ann, 'before');
    await waitUntil(() => seen.length === 1);
    expect(discord.dropGateway(bot)).toBe(1);
    discord.dm(bot, ann, 'while away 1');
    discord.dm(bot, ann, 'while away 2');
    await waitUntil(() => seen.length === 3);
    discord.dm(bot, ann, 'after');
    await waitUntil(() => seen.length === 4);
    expect(seen).toEqual(['before', 'while away 1', 'while away 2', 'after']);
    expect(bot.handshakes).toEqual(['IDENTIFY', 'RESUME']);
  });
});
