import '../../support/captured-logs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { captureLogLines, type CapturedLogs } from '../../support/captured-logs';
import { FakeOpenAiServer } from '../../support/fake-openai-server';
import { FakeTelegramServer, type FakeBot } from '../../support/fake-telegram';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness';

/**
 * Files in Telegram chats through the whole gateway: grammY's updates with a document or a photo, getFile and the
 * download path of the fake Bot API, the gateway's size limit (`mediaMaxMb`), and what the agent is given.
 */
describe('telegram files in the gateway', () => {
  let telegram: FakeTelegramServer;
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let bot: FakeBot;
  let logs: CapturedLogs;

  beforeAll(async () => {
    logs = captureLogLines();
    telegram = await new FakeTelegramServer().start();
    model = await new FakeOpenAiServer().start();
    model.always(model.text('got it'));
    bot = telegram.addBot('files_bot');
    gw = await startTestGateway(
      `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
  agents: { list: [{ id: "main", model: "fake/gpt-test", default: true }] },
  channels: { telegram: { apiRoot: "${telegram.apiRoot}", botToken: "\${TG_FILES}", dmPolicy: "open", allowFrom: ["*"], mediaMaxMb: 1 } },
}`,
      { env: { TG_FILES: bot.token } },
    );
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
    await telegram?.close();
    logs?.stop();
  });

  /** The user message of the model's last request. */
  const lastPrompt = (): string => {
    const messages = (model.requests.at(-1)?.body?.messages ?? []) as { role: string; content: string }[];
    return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  };

  it('gives the agent a text document inline and stores a photo under the state dir, 0600', async () => {
    const ann = FakeTelegramServer.user('Ann');
    telegram.dmDocument(bot, ann, { name: 'prices.csv', mimeType: 'text/csv', data: Buffer.from('item,eur\ntea,3\n') }, 'the list');
    await telegram.waitForMessages(bot, ann.id, (m) => m[0]?.text === 'got it', 30_000);
    expect(lastPrompt()).toContain('the list\n\nFiles sent with this message by the chat user.');
    expect(lastPrompt()).toContain('[Attachment 1 of 1 "prices.csv" (text/csv, 15 bytes):]\n```\nitem,eur\ntea,3\n\n```');

    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]);
    const sent = telegram.dmPhoto(bot, ann, jpeg);
    await telegram.waitForMessages(bot, ann.id, (m) => m.length === 2, 30_000);
    const stored = new RegExp(`stored at (agents/main/attachments/telegram-[0-9a-f-]+/0-photo-${sent.message_id}\\.jpg)`).exec(
      lastPrompt(),
    );
    expect(stored).not.toBeNull();
    const file = path.join(gw.stateDir, stored![1]);
    expect(await fs.readFile(file)).toEqual(jpeg);
    if (process.platform !== 'win32') expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses a file over mediaMaxMb with a reply naming the limit, without downloading it or running the agent', async () => {
    const bo = FakeTelegramServer.user('Bo');
    const asked = model.requests.length;
    const fetched = telegram.calls(bot, 'getFile').length;
    telegram.dmDocument(bot, bo, { name: 'video.bin', mimeType: 'application/octet-stream', data: Buffer.alloc(1536 * 1024) });
    const [reply] = await telegram.waitForMessages(bot, bo.id, (m) => m.length === 1, 30_000);
    expect(reply.text).toBe('The file "video.bin" is 1.5 MB; files up to 1 MB are accepted here. Your message was not passed on.');
    expect(model.requests.length).toBe(asked);
    expect(telegram.calls(bot, 'getFile')).toHaveLength(fetched);
  });

  it('says a failed download in the chat and the logs without the bot token', async () => {
    const cy = FakeTelegramServer.user('Cy');
    const message = telegram.dmDocument(bot, cy, { name: 'gone.txt', mimeType: 'text/plain', data: Buffer.from('x') });
    bot.files.delete(message.document!.file_id); // Telegram no longer has it: getFile answers "invalid file_id"
    const [reply] = await telegram.waitForMessages(bot, cy.id, (m) => m.length === 1, 30_000);
    expect(reply.text).toBe(
      'The file "gone.txt" could not be downloaded (Telegram did not give the file: account default: getFile failed: 400 ' +
        'Bad Request: invalid file_id). Your message was not passed on; please send it again.',
    );
    const secret = bot.token.split(':')[1];
    expect(JSON.stringify(logs.lines)).not.toContain(secret);
    expect(
      bot
        .botMessages(cy.id)
        .map((m) => m.text)
        .join('\n'),
    ).not.toContain(secret);
  });
});
