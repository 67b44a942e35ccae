import { FakeOpenAiServer, tokenText } from '../../support/fake-openai-server';
import { FakeTelegramServer, type FakeBot } from '../../support/fake-telegram';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness';

/**
 * OpenClaw's per-group sender allowlist (`channels.telegram.groups.<id>.allowFrom`) over the fake Bot API: in a group
 * that has one, only its senders (by numeric id or `@username`) reach the agent, in place of the channel's
 * `groupAllowFrom`; an empty one lets nobody in; a group without one keeps `groupAllowFrom`.
 */
describe('telegram per-group allowFrom', () => {
  let telegram: FakeTelegramServer;
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let bot: FakeBot;
  const ann = FakeTelegramServer.user('Ann');
  const bo = FakeTelegramServer.user('Bo');
  const cara = FakeTelegramServer.user('Cara');
  const team = FakeTelegramServer.group('Team');
  const lobby = FakeTelegramServer.group('Lobby');
  const closed = FakeTelegramServer.group('Closed');

  beforeAll(async () => {
    telegram = await new FakeTelegramServer().start();
    model = await new FakeOpenAiServer().start();
    model.always(model.tokens(3, 0));
    bot = telegram.addBot('team_bot');
    for (const chat of [team, lobby, closed]) bot.addChat(chat);
    gw = await startTestGateway(
      `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
  agents: { list: [{ id: "main", model: "fake/gpt-test", default: true }] },
  channels: {
    telegram: {
      apiRoot: "${telegram.apiRoot}",
      botToken: "\${TG_TOKEN}",
      groupAllowFrom: ["${bo.id}"],
      groups: {
        "${team.id}": { requireMention: true, allowFrom: [${ann.id}, "@cara"] },
        "${closed.id}": { requireMention: false, allowFrom: [] },
        "*": { requireMention: true },
      },
    },
  },
}`,
      { env: { TG_TOKEN: bot.token } },
    );
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
    await telegram?.close();
  });

  it("answers only the group's own senders, by numeric id and by @username, not those of groupAllowFrom", async () => {
    telegram.groupMessage(bot, team, bo, 'me too?', { mention: true });
    const byId = telegram.groupMessage(bot, team, ann, 'by id', { mention: true });
    await telegram.waitForMessages(bot, team.id, (m) => m.length === 1 && m[0].text === tokenText(3), 30_000);
    const byName = telegram.groupMessage(bot, team, cara, 'by name', { mention: true });
    const replies = await telegram.waitForMessages(bot, team.id, (m) => m.length === 2 && m[1].text === tokenText(3), 30_000);
    expect(replies.map((m) => m.replyTo)).toEqual([byId.message_id, byName.message_id]);
  });

  it('keeps groupAllowFrom for a group without its own list', async () => {
    telegram.groupMessage(bot, lobby, ann, 'not on groupAllowFrom', { mention: true });
    const asked = telegram.groupMessage(bot, lobby, bo, 'on groupAllowFrom', { mention: true });
    const [reply] = await telegram.waitForMessages(bot, lobby.id, (m) => m[0]?.text === tokenText(3), 30_000);
    expect(reply.replyTo).toBe(asked.message_id);
    expect(bot.botMessages(lobby.id)).toHaveLength(1);
  });

  it('lets nobody in through an empty list', async () => {
    for (const sender of [ann, bo, cara]) telegram.groupMessage(bot, closed, sender, 'anyone?', { mention: true });
    // A message the bot answers after them, in another group, shows they were handled (updates come in order).
    const later = telegram.groupMessage(bot, lobby, bo, 'after the closed ones', { mention: true });
    await telegram.waitForMessages(bot, lobby.id, (m) => m.some((r) => r.replyTo === later.message_id && r.text === tokenText(3)), 30_000);
    expect(bot.botMessages(closed.id)).toHaveLength(0);
  });
});
