import { FakeOpenAiServer, tokenText } from '../../support/fake-openai-server';
import { FakeTelegramServer } from '../../support/fake-telegram';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness';

/**
 * The gateway stops (what SIGTERM does: the application closes) while a Telegram reply streams: the run is aborted by
 * the shutdown, so the update was not answered; it stays in the account's journal and the restarted gateway answers
 * it once, editing the message already sent (no warning left in the chat, no second message).
 */
describe('telegram channel across a gateway shutdown', () => {
  let telegram: FakeTelegramServer;
  let model: FakeOpenAiServer;
  let gw: TestGateway | undefined;

  beforeAll(async () => {
    telegram = await new FakeTelegramServer().start();
    model = await new FakeOpenAiServer().start();
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
    await telegram?.close();
  });

  it('answers an update whose reply was streaming at shutdown exactly once after the restart', async () => {
    const bot = telegram.addBot('restart_bot');
    const ann = FakeTelegramServer.user('Ann');
    model.always(model.tokens(8, 700)); // still streaming when the gateway stops
    gw = await startTestGateway(
      `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
  agents: { list: [{ id: "main", model: "fake/gpt-test", default: true }] },
  channels: { telegram: { apiRoot: "${telegram.apiRoot}", botToken: "\${TG}", dmPolicy: "open", allowFrom: ["*"] } },
}`,
      { env: { TG: bot.token } },
    );
    telegram.dm(bot, ann, 'tell me');
    // The reply's first text is in the chat: the run is under way.
    await telegram.waitForMessages(bot, ann.id, (m) => m.length === 1, 60_000);
    const requestsBefore = model.requests.length;
    gw = await gw.restart();
    await telegram.waitForMessages(bot, ann.id, (m) => m[0]?.text === tokenText(8), 60_000);
    const messages = bot.botMessages(ann.id);
    expect(messages).toHaveLength(1);
    expect(messages[0].versions.some((v) => v.includes('shutting down'))).toBe(false);
    // Asked again once after the restart: one more model call for the one update.
    expect(model.requests.length).toBe(requestsBefore + 1);
  }, 180_000);
});
