import type { ChannelDefinition } from '../../../src/plugin-sdk';
import { telegramChannel } from '../../../src/bundled-plugins/telegram/telegram-channel';
import { FakeTelegramServer } from '../../support/fake-telegram';
import { ScriptedChannelContext } from '../../support/scripted-channel-context';

/**
 * Files the gateway sends into a Telegram chat (`send` with `files`): the real grammY client uploads them as
 * multipart/form-data to the fake Bot API, an image by sendPhoto and anything else by sendDocument.
 */
describe('telegram channel plugin sending files', () => {
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

  it('sends the text, then each file with its name and exact bytes', async () => {
    const bot = telegram.addBot('upload_bot');
    bot.addChat({ id: ann.id, type: 'private', first_name: ann.first_name });
    channel = telegramChannel({ pollTimeoutSeconds: 1, chatIntervalMs: 10 });
    await channel.start(new ScriptedChannelContext({ botToken: bot.token, apiRoot: telegram.apiRoot }));
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a, 0x2d, 0x2d])]);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);
    const receipt = await channel.send({
      sessionKey: 'agent:main:main',
      accountId: 'default',
      peer: { kind: 'dm', id: String(ann.id) },
      text: 'Here is the **report**',
      files: [
        { name: 'report.pdf', mimeType: 'application/pdf', data: pdf },
        { name: 'chart.png', mimeType: 'image/png', data: png },
      ],
    });
    expect(receipt.status).toBe('delivered');
    expect(bot.botMessages(ann.id).map((m) => m.text)).toEqual(['Here is the report']);
    expect(bot.uploads.map((u) => [u.method, u.filename, u.chatId])).toEqual([
      ['sendDocument', 'report.pdf', ann.id],
      ['sendPhoto', 'chart.png', ann.id],
    ]);
    expect(bot.uploads[0].data).toEqual(pdf);
    expect(bot.uploads[1].data).toEqual(png);
  });

  it('sends files alone without an empty text, and reports a chat Telegram does not know as failed', async () => {
    const bot = telegram.addBot('alone_bot');
    bot.addChat({ id: ann.id, type: 'private', first_name: ann.first_name });
    channel = telegramChannel({ pollTimeoutSeconds: 1, chatIntervalMs: 10 });
    await channel.start(new ScriptedChannelContext({ botToken: bot.token, apiRoot: telegram.apiRoot }));
    const file = { name: 'a.txt', mimeType: 'text/plain', data: Buffer.from('only a file') };
    const sent = await channel.send({
      sessionKey: 'k',
      accountId: 'default',
      peer: { kind: 'dm', id: String(ann.id) },
      text: '',
      files: [file],
    });
    expect(sent.status).toBe('delivered');
    expect(bot.botMessages(ann.id)).toEqual([]);
    expect(bot.uploads.map((u) => [u.method, u.filename, u.data.toString()])).toEqual([['sendDocument', 'a.txt', 'only a file']]);

    const failed = await channel.send({
      sessionKey: 'k',
      accountId: 'default',
      peer: { kind: 'dm', id: '424242' },
      text: '',
      files: [file],
    });
    expect(failed).toEqual({ status: 'failed', detail: 'account default: sendDocument failed: 400 Bad Request: chat not found' });
  });
});
