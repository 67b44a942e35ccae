import request from 'supertest';
import { API_CLIENT } from '../../support/admin-client';
import { FakeDiscordServer, type DChannel, type DGuild, type FakeDiscordBot } from '../../support/fake-discord';
import { FakeOpenAiServer, tokenText } from '../../support/fake-openai-server';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness';
import { CliBuild, runCli, transpileCli } from '../../fixtures/cli-runner';
import { waitUntil } from '../../support/wait-until';

/**
 * The whole gateway with the bundled Discord plugin over the fake Discord: the section loads the plugin, an unknown
 * DM gets a pairing code, `clawgate pairing approve` lets the sender in, the bound agent's reply (a scripted model
 * streaming) arrives by edits and split when long; a guild message needs a mention and is answered in its thread by
 * the agent the guild's binding names — where `/admin/routing/resolve` says it goes; two accounts reach their own
 * agents; a 429 is waited out.
 */
jest.setTimeout(120_000); // a shared machine under load: the gateway, the CLI and the fakes are real processes

describe('discord channel in the gateway', () => {
  let discord: FakeDiscordServer;
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let cli: CliBuild;
  let main: FakeDiscordBot;
  let work: FakeDiscordBot;
  let guild: DGuild;
  let general: DChannel;
  const ann = FakeDiscordServer.user('Ann');

  const clawgate = (...args: string[]) => runCli(cli.cliJs, args, { HOME: gw.dir, CLAWGATE_URL: gw.url, CLAWGATE_LOG_LEVEL: 'silent' });
  const sessionKeysOf = async (agentId: string): Promise<string[]> => {
    const body = (await request(gw.url).get('/admin/sessions').query({ agentId }).set(API_CLIENT).expect(200)).body as {
      sessions: { sessionKey: string }[];
    };
    return body.sessions.map((s) => s.sessionKey);
  };

  beforeAll(async () => {
    [cli, discord, model] = await Promise.all([transpileCli(), new FakeDiscordServer().start(), new FakeOpenAiServer().start()]);
    model.always(model.tokens(8, 250)); // slow enough that the reply is sent before it is whole, so edits follow
    main = discord.addBot('Main');
    work = discord.addBot('Work');
    ({
      guild,
      channels: [general],
    } = discord.addGuild('Team', [main], ['general']));
    gw = await startTestGateway(
      `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
  agents: {
    list: [
      { id: "main", model: "fake/gpt-test", default: true },
      { id: "work", model: "fake/gpt-test" },
      { id: "team", model: "fake/gpt-test" },
    ],
  },
  bindings: [
    { agentId: "work", match: { channel: "discord", accountId: "work" } },
    { agentId: "team", match: { channel: "discord", guildId: "${guild.id}" } },
  ],
  channels: {
    discord: {
      api: "${discord.api}",
      token: "\${DC_MAIN}",
      guilds: { "${guild.id}": { channels: { general: { requireMention: true } } } },
      accounts: { work: { token: "\${DC_WORK}", dmPolicy: "open", allowFrom: ["*"] } },
    },
  },
}`,
      { env: { DC_MAIN: main.token, DC_WORK: work.token } },
    );
    await waitUntil(async () => {
      const states = await accountStates();
      return states.length === 2 && states.every(([, state]) => state === 'connected');
    });
  }, 180_000);
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
    await discord?.close();
    await cli?.remove();
  });

  async function accountStates(): Promise<[string, string][]> {
    const health = (await request(gw.url).get('/admin/channels').set(API_CLIENT).expect(200)).body as {
      channels: { id: string; accounts: { accountId: string; state: string }[] }[];
    };
    return (health.channels.find((c) => c.id === 'discord')?.accounts ?? []).map((a) => [a.accountId, a.state]);
  }

  it('answers an unknown DM with a pairing code; after `clawgate pairing approve` the agent replies by edits', async () => {
    const hello = discord.dm(main, ann, 'hello');
    const [pairing] = await discord.waitForMessages(main, hello.channel_id, (m) => m.length === 1, 30_000);
    const code = /code is ([A-Z0-9]{8})/.exec(pairing.content)?.[1];
    expect(code).toBeDefined();
    expect(model.requests).toHaveLength(0);
    const approve = await clawgate('pairing', 'approve', 'discord', code!);
    expect(approve.stderr).toBe('');
    expect(approve.code).toBe(0);

    const asked = discord.dm(main, ann, 'now?');
    const messages = await discord.waitForMessages(main, hello.channel_id, (m) => m[1]?.content === tokenText(8), 30_000);
    expect(messages[1].replyTo).toBe(asked.id);
    expect(messages[1].versions.length).toBeGreaterThan(1);
    expect((await sessionKeysOf('main')).length).toBeGreaterThan(0);
  });

  it('splits a long streamed reply into messages within 2000 characters', async () => {
    model.always(model.tokens(400, 5));
    try {
      const asked = discord.dm(main, ann, 'tell me a lot');
      const expected = tokenText(400);
      const messages = await discord.waitForMessages(
        main,
        asked.channel_id,
        (m) =>
          m
            .slice(2)
            .map((x) => x.content)
            .join(' ') === expected,
        60_000,
      );
      const reply = messages.slice(2);
      expect(reply.length).toBe(2);
      expect(reply.every((m) => m.content.length <= 2000)).toBe(true);
      expect(reply[0].replyTo).toBe(asked.id);
    } finally {
      model.always(model.tokens(8, 250));
    }
  });

  it('ignores a guild message without a mention; answers one with it in its thread, where routing resolve says', async () => {
    const thread = discord.addThread(general, 'question');
    const before = model.requests.length;
    discord.guildMessage(thread, ann, 'just chatting');
    const asked = discord.guildMessage(thread, ann, 'help please', { mention: main });
    const [reply] = await discord.waitForMessages(main, thread.id, (m) => m[0]?.content === tokenText(8), 30_000);
    expect(reply.replyTo).toBe(asked.id);
    expect(discord.botMessages(main, thread.id)).toHaveLength(1);
    expect(model.requests.length - before).toBe(1);

    const resolved = (
      await request(gw.url)
        .post('/admin/routing/resolve')
        .set(API_CLIENT)
        .send({
          channel: 'discord',
          accountId: 'default',
          peer: { kind: 'channel', id: general.id },
          guildId: guild.id,
          threadId: thread.id,
        })
        .expect(200)
    ).body as { agentId: string; sessionKey: string; matchedBy: { tier: string } };
    expect(resolved).toMatchObject({ agentId: 'team', matchedBy: { tier: 'guildId' } });
    expect(await sessionKeysOf('team')).toEqual([resolved.sessionKey]);
  });

  it('routes the second account to its own agent, and waits out a 429 on the way', async () => {
    const bo = FakeDiscordServer.user('Bo');
    work.failNext('POST', '/channels/*/messages', 1, 0.5);
    const asked = discord.dm(work, bo, 'work question');
    await discord.waitForMessages(work, asked.channel_id, (m) => m[0]?.content === tokenText(8), 30_000);
    expect(work.calls.filter((c) => c.method === 'POST' && c.route.endsWith('/messages')).map((c) => c.status)).toEqual([429, 200]);
    const resolved = (
      await request(gw.url)
        .post('/admin/routing/resolve')
        .set(API_CLIENT)
        .send({ channel: 'discord', accountId: 'work', peer: { kind: 'direct', id: bo.id } })
        .expect(200)
    ).body as { agentId: string; sessionKey: string };
    expect(resolved.agentId).toBe('work');
    expect(await sessionKeysOf('work')).toContain(resolved.sessionKey);
  });
});
