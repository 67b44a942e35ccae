import request from 'supertest';
import { API_CLIENT } from '../../support/admin-client';
import { FakeOpenAiServer, tokenText } from '../../support/fake-openai-server';
import { FakeTelegramServer, type FakeBot } from '../../support/fake-telegram';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness';

/**
 * The whole gateway with the bundled Telegram plugin over the fake Bot API: the section loads the plugin, unknown
 * DMs get a pairing code, an approved sender reaches the bound agent (a scripted model streaming) and the reply
 * arrives by edits; groups need a mention; two accounts reach their own agents.
 */
describe('telegram channel in the gateway', () => {
  let telegram: FakeTelegramServer;
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let main: FakeBot;
  let work: FakeBot;
  const ann = FakeTelegramServer.user('Ann');

  beforeAll(async () => {
    telegram = await new FakeTelegramServer().start();
    model = await new FakeOpenAiServer().start();
    model.always(model.tokens(8, 250)); // slow enough that the reply is sent before it is whole, so edits follow
    main = telegram.addBot('main_bot');
    work = telegram.addBot('work_bot');
    gw = await startTestGateway(
      `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
  agents: { list: [{ id: "main", model: "fake/gpt-test", default: true }, { id: "work", model: "fake/gpt-test" }] },
  bindings: [{ agentId: "work", match: { channel: "telegram", accountId: "work" } }],
  channels: {
    telegram: {
      apiRoot: "${telegram.apiRoot}",
      botToken: "\${TG_MAIN}",
      groups: { "*": { requireMention: true } },
      accounts: { work: { botToken: "\${TG_WORK}", dmPolicy: "open", allowFrom: ["*"] } },
    },
  },
}`,
      { env: { TG_MAIN: main.token, TG_WORK: work.token } },
    );
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
    await telegram?.close();
  });

  it('answers an unknown DM with a pairing code, and after approval the agent replies by edits', async () => {
    telegram.dm(main, ann, 'hello');
    const [pairing] = await telegram.waitForMessages(main, ann.id, (m) => m.length === 1, 30_000);
    const code = /code is ([A-Z0-9]{8})/.exec(pairing.text)?.[1];
    expect(code).toBeDefined();
    await request(gw.url).post(`/admin/pairing/telegram/${code}/approve`).set(API_CLIENT).expect(200);

    const asked = telegram.dm(main, ann, 'now?');
    const messages = await telegram.waitForMessages(main, ann.id, (m) => m[1]?.text === tokenText(8), 30_000);
    expect(messages[1].replyTo).toBe(asked.message_id);
    expect(messages[1].versions.length).toBeGreaterThan(1);
    const health = (await request(gw.url).get('/admin/channels').set(API_CLIENT).expect(200)).body as {
      channels: { id: string; accounts: { accountId: string; state: string }[] }[];
    };
    const accounts = health.channels.find((c) => c.id === 'telegram')?.accounts ?? [];
    expect(accounts.map((a) => [a.accountId, a.state]).sort()).toEqual([
      ['default', 'connected'],
      ['work', 'connected'],
    ]);
  });

  it('ignores a group message without a mention and answers one with it in its topic', async () => {
    const group = main.addChat(FakeTelegramServer.group('Team', { forum: true }));
    telegram.groupMessage(main, group, ann, 'just chatting', { threadId: 5 });
    const asked = telegram.groupMessage(main, group, ann, 'help please', { mention: true, threadId: 5 });
    const [reply] = await telegram.waitForMessages(main, group.id, (m) => m[0]?.text === tokenText(8), 30_000);
    expect(reply).toMatchObject({ threadId: 5, replyTo: asked.message_id });
    expect(main.botMessages(group.id)).toHaveLength(1);
  });

  it('routes the second account to its own agent', async () => {
    const bo = FakeTelegramServer.user('Bo');
    telegram.dm(work, bo, 'work question');
    await telegram.waitForMessages(work, bo.id, (m) => m[0]?.text === tokenText(8), 30_000);
    const sessions = (await request(gw.url).get('/admin/sessions').query({ agentId: 'work' }).set(API_CLIENT).expect(200)).body as {
      items?: { key: string }[];
      sessions?: { key: string }[];
    };
    expect(JSON.stringify(sessions)).toContain('agent:work:');
  });
});
