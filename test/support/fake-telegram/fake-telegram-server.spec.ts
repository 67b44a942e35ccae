import { Api, GrammyError, InputFile } from 'grammy';
import { FakeTelegramServer } from './fake-telegram-server';

/** The fake speaks the Bot API as grammY's real client expects it. */
describe('fake Telegram Bot API server', () => {
  let telegram: FakeTelegramServer;

  beforeEach(async () => {
    telegram = await new FakeTelegramServer().start();
  });
  afterEach(() => telegram.close());

  const apiOf = (token: string): Api => new Api(token, { apiRoot: telegram.apiRoot });

  it('answers getMe for a known token and 401 Unauthorized for another', async () => {
    const bot = telegram.addBot('helper_bot');
    await expect(apiOf(bot.token).getMe()).resolves.toMatchObject({ id: bot.user.id, is_bot: true, username: 'helper_bot' });
    const refused = await apiOf('123:nope')
      .getMe()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GrammyError);
    expect(refused).toMatchObject({ error_code: 401, description: 'Unauthorized' });
  });

  it('confirms updates below the offset and long-polls until one comes', async () => {
    const bot = telegram.addBot('poll_bot');
    const api = apiOf(bot.token);
    const ann = FakeTelegramServer.user('Ann');
    telegram.dm(bot, ann, 'one');
    const first = await api.getUpdates({ timeout: 0 });
    expect(first.map((u) => u.message?.text)).toEqual(['one']);
    // Not confirmed yet: asked again without an offset, the same update comes back.
    expect((await api.getUpdates({ timeout: 0 })).map((u) => u.update_id)).toEqual([first[0].update_id]);

    const waiting = api.getUpdates({ offset: first[0].update_id + 1, timeout: 5 });
    setTimeout(() => telegram.dm(bot, ann, 'two'), 50);
    const second = await waiting;
    expect(second.map((u) => u.message?.text)).toEqual(['two']);
    expect(bot.pendingUpdates().map((u) => u.message?.text)).toEqual(['two']);
    await api.getUpdates({ offset: second[0].update_id + 1, timeout: 0 });
    expect(bot.pendingUpdates()).toEqual([]);
  });

  it('filters by allowed_updates and ends an older long poll with 409 when a second instance polls', async () => {
    const bot = telegram.addBot('twin_bot');
    const api = apiOf(bot.token);
    const older = api.getUpdates({ timeout: 5 }).catch((e: unknown) => e);
    await telegram.waitFor(bot, () => bot.calls.length === 1 || undefined);
    const newer = api.getUpdates({ timeout: 0, allowed_updates: ['edited_message'] });
    expect(await older).toMatchObject({ error_code: 409, description: expect.stringContaining('terminated by other getUpdates request') });
    expect(await newer).toEqual([]);
    telegram.dm(bot, FakeTelegramServer.user('Bo'), 'not an edit');
    expect(await api.getUpdates({ timeout: 0 })).toEqual([]);
  });

  it('sends, threads and edits messages, and checks HTML and the length limit as Telegram does', async () => {
    const bot = telegram.addBot('talk_bot');
    const api = apiOf(bot.token);
    const group = bot.addChat(FakeTelegramServer.group('Forum', { forum: true }));
    const asked = telegram.groupMessage(bot, group, FakeTelegramServer.user('Cy'), 'hello', { mention: true, threadId: 7 });
    expect(asked.entities).toEqual([{ type: 'mention', offset: 0, length: '@talk_bot'.length }]);

    const sent = await api.sendMessage(group.id, '<b>Hi</b> &amp; welcome', {
      parse_mode: 'HTML',
      message_thread_id: 7,
      reply_parameters: { message_id: asked.message_id },
    });
    expect(sent).toMatchObject({ text: 'Hi & welcome', message_thread_id: 7, reply_to_message: { message_id: asked.message_id } });
    await api.editMessageText(group.id, sent.message_id, 'Hi &amp; welcome, <i>Cy</i>', { parse_mode: 'HTML' });
    expect(bot.botMessages(group.id)).toEqual([
      expect.objectContaining({
        text: 'Hi & welcome, Cy',
        threadId: 7,
        replyTo: asked.message_id,
        versions: ['<b>Hi</b> &amp; welcome', 'Hi &amp; welcome, <i>Cy</i>'],
      }),
    ]);
    await expect(api.sendChatAction(group.id, 'typing', { message_thread_id: 7 })).resolves.toBe(true);

    const errors = await Promise.all([
      api
        .editMessageText(group.id, sent.message_id, 'Hi &amp; welcome, <i>Cy</i>', { parse_mode: 'HTML' })
        .catch((e: GrammyError) => e.description),
      api.sendMessage(group.id, 'a < b', { parse_mode: 'HTML' }).catch((e: GrammyError) => e.description),
      api.sendMessage(group.id, 'x'.repeat(4097)).catch((e: GrammyError) => e.description),
      api.sendMessage(group.id, 'x', { reply_parameters: { message_id: 999 } }).catch((e: GrammyError) => e.description),
      api.sendMessage(group.id, 'x', { message_thread_id: 8 }).catch((e: GrammyError) => e.description),
      api.sendMessage(42, 'x').catch((e: GrammyError) => e.description),
    ]);
    expect(errors).toEqual([
      expect.stringContaining('Bad Request: message is not modified'),
      expect.stringContaining("Bad Request: can't parse entities"),
      'Bad Request: message is too long',
      'Bad Request: message to be replied not found',
      'Bad Request: message thread not found',
      'Bad Request: chat not found',
    ]);
    // 4096 characters after entity parsing is within the limit, however long the markup.
    await expect(api.sendMessage(group.id, `<b>${'y'.repeat(4096)}</b>`, { parse_mode: 'HTML' })).resolves.toBeDefined();
  });

  it('answers 429 with retry_after for the scripted calls, then serves again', async () => {
    const bot = telegram.addBot('busy_bot');
    const api = apiOf(bot.token);
    const ann = FakeTelegramServer.user('Ann');
    telegram.dm(bot, ann, 'hi');
    bot.failNext('sendMessage', 1, 3);
    const refused = await api.sendMessage(ann.id, 'hello').catch((e: GrammyError) => e);
    expect(refused).toMatchObject({ error_code: 429, description: 'Too Many Requests: retry after 3', parameters: { retry_after: 3 } });
    await expect(api.sendMessage(ann.id, 'hello')).resolves.toMatchObject({ text: 'hello' });
  });

  it('takes multipart uploads (sendDocument, sendPhoto), refuses a remote URL, and serves bots files up to 20 MB', async () => {
    const bot = telegram.addBot('upload_bot');
    const api = apiOf(bot.token);
    const ann = FakeTelegramServer.user('Ann');
    telegram.dm(bot, ann, 'hi');
    const bytes = Buffer.from([0, 0x2d, 0x2d, 0x0d, 0x0a, 0xff]);
    const doc = await api.sendDocument(ann.id, new InputFile(bytes, 'x.bin'), { caption: 'here' });
    expect(doc.document).toMatchObject({ file_name: 'x.bin', file_size: 6 });
    await api.sendPhoto(ann.id, new InputFile(Buffer.from('jpeg'), 'p.jpg'));
    expect(bot.uploads.map((u) => [u.method, u.filename, u.data, u.caption])).toEqual([
      ['sendDocument', 'x.bin', bytes, 'here'],
      ['sendPhoto', 'p.jpg', Buffer.from('jpeg'), undefined],
    ]);
    await expect(api.sendDocument(ann.id, 'https://example.com/a.pdf')).rejects.toMatchObject({
      description: 'Bad Request: wrong file identifier/HTTP URL specified',
    });
    const big = telegram.dmDocument(bot, ann, {
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      data: Buffer.alloc(20 * 1024 * 1024 + 1),
    });
    await expect(api.getFile(big.document!.file_id)).rejects.toMatchObject({ description: 'Bad Request: file is too big' });
  });

  it('serves files by getFile and the download path, and posts updates to a webhook with its secret', async () => {
    const bot = telegram.addBot('file_bot');
    const api = apiOf(bot.token);
    const ann = FakeTelegramServer.user('Ann');
    const message = telegram.dmDocument(bot, ann, { name: 'notes.txt', mimeType: 'text/plain', data: Buffer.from('abc') });
    const file = await api.getFile(message.document!.file_id);
    const download = await fetch(`${telegram.apiRoot}/file/bot${bot.token}/${file.file_path}`);
    expect(Buffer.from(await download.arrayBuffer()).toString()).toBe('abc');
    await expect(api.getFile('nope')).rejects.toMatchObject({ description: 'Bad Request: invalid file_id' });

    const received: { secret?: string; body: unknown }[] = [];
    const { createServer } = await import('node:http');
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ secret: req.headers['x-telegram-bot-api-secret-token'] as string, body: JSON.parse(body) });
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    try {
      await expect(api.setWebhook('https://x', { secret_token: 'bad token!' })).rejects.toMatchObject({ error_code: 400 });
      const port = (hook.address() as { port: number }).port;
      await api.setWebhook(`http://127.0.0.1:${port}/tg`, { secret_token: 's3cret' });
      await expect(api.getUpdates()).rejects.toMatchObject({ error_code: 409 });
      await telegram.waitFor(bot, () => bot.pendingUpdates().length === 0 || undefined, 5000, 'the webhook delivery');
      expect(received).toEqual([
        { secret: 's3cret', body: expect.objectContaining({ message: expect.objectContaining({ message_id: message.message_id }) }) },
      ]);
      await api.deleteWebhook();
      await expect(api.getUpdates({ timeout: 0 })).resolves.toEqual([]);
    } finally {
      await new Promise((r) => hook.close(r));
    }
  });

  it('speaks setWebhook, getWebhookInfo and deleteWebhook, and posts again after a non-2xx answer until one is taken', async () => {
    const bot = telegram.addBot('hook_bot');
    const api = apiOf(bot.token);
    const answers = [401, 500, 200];
    const received: { secret?: string; updateId: number }[] = [];
    const { createServer } = await import('node:http');
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const { update_id: updateId } = JSON.parse(body) as { update_id: number };
        received.push({ secret: req.headers['x-telegram-bot-api-secret-token'] as string, updateId });
        res.statusCode = answers.shift() ?? 200;
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(hook.address() as { port: number }).port}/tg`;
      await expect(api.setWebhook('ftp://x')).rejects.toMatchObject({
        error_code: 400,
        description: 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook',
      });
      await expect(api.setWebhook(url, { max_connections: 0 })).rejects.toMatchObject({ error_code: 400 });
      await expect(api.getWebhookInfo()).resolves.toEqual({ url: '', has_custom_certificate: false, pending_update_count: 0 });

      await api.setWebhook(url, { secret_token: 'tok_1', max_connections: 1, allowed_updates: ['message'] });
      telegram.dm(bot, FakeTelegramServer.user('Ann'), 'hi');
      await telegram.waitFor(bot, () => bot.webhook?.lastError !== undefined || undefined, 5000, 'a failed delivery');
      await expect(api.getWebhookInfo()).resolves.toMatchObject({
        url,
        max_connections: 1,
        allowed_updates: ['message'],
        pending_update_count: 1,
        last_error_message: expect.stringMatching(/^Wrong response from the webhook: (401|500)$/),
      });
      await telegram.waitFor(bot, () => bot.pendingUpdates().length === 0 || undefined, 5000, 'the update to be taken');
      expect(received.map((r) => r.secret)).toEqual(['tok_1', 'tok_1', 'tok_1']);
      expect(new Set(received.map((r) => r.updateId)).size).toBe(1);
      expect(telegram.webhookPosts.map((p) => [p.update.update_id, p.status])).toEqual(
        [401, 500, 200].map((status) => [received[0].updateId, status]),
      );

      await api.deleteWebhook();
      await expect(api.getWebhookInfo()).resolves.toMatchObject({ url: '' });
    } finally {
      await new Promise((r) => hook.close(r));
    }
  });
});
