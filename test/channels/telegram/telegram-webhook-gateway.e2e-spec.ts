import * as fs from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../../src/modules/config/pipeline/load-config';
import { formatConfigIssue } from '../../../src/modules/config/pipeline/config-issue';
import { API_CLIENT } from '../../support/admin-client';
import { FakeOpenAiServer, tokenText } from '../../support/fake-openai-server';
import { FakeTelegramServer, type FakeBot } from '../../support/fake-telegram';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness';

const SECRET = 'gw_hook_secret-42';

/**
 * The whole gateway with the bundled Telegram plugin in webhook mode: the fake Bot API posts updates to a reverse
 * proxy (the public `webhookUrl`), which forwards them to the gateway's `/plugins/telegram/webhook/default`. Pairing
 * and the agent's reply work as with polling; a post without the secret token is refused; a redelivered update is
 * answered once; an update whose reply the shutdown cut short is answered once after the restart.
 */
describe('telegram webhook mode in the gateway', () => {
  let telegram: FakeTelegramServer;
  let model: FakeOpenAiServer;
  let proxy: Server;
  let gw: TestGateway | undefined;
  let bot: FakeBot;

  beforeAll(async () => {
    telegram = await new FakeTelegramServer({ webhookRetryMs: 200 }).start();
    model = await new FakeOpenAiServer().start();
    // The reverse proxy in front of the gateway: Telegram only knows its address, which survives a restart.
    proxy = createServer((req, res) => {
      if (!gw) return void res.writeHead(502).end();
      const target = new URL(req.url ?? '/', gw.url);
      const forward = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.writeHead(502).end());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    bot = telegram.addBot('gw_hook_bot');
    model.always(model.tokens(6, 150));
    gw = await startTestGateway(
      `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
  agents: { list: [{ id: "main", model: "fake/gpt-test", default: true }] },
  channels: {
    telegram: {
      apiRoot: "${telegram.apiRoot}",
      botToken: "\${TG}",
      webhookUrl: "http://127.0.0.1:${(proxy.address() as AddressInfo).port}/plugins/telegram/webhook/default",
      webhookSecret: "\${TG_HOOK_SECRET}",
    },
  },
}`,
      { env: { TG: bot.token, TG_HOOK_SECRET: SECRET } },
    );
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
    await telegram?.close();
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it('pairs an unknown DM and answers the approved sender through the webhook, never polling', async () => {
    const ann = FakeTelegramServer.user('Ann');
    telegram.dm(bot, ann, 'hello');
    const [pairing] = await telegram.waitForMessages(bot, ann.id, (m) => m.length === 1, 30_000);
    const code = /code is ([A-Z0-9]{8})/.exec(pairing.text)?.[1];
    expect(code).toBeDefined();
    await request(gw!.url).post(`/admin/pairing/telegram/${code}/approve`).set(API_CLIENT).expect(200);

    const asked = telegram.dm(bot, ann, 'now?');
    const messages = await telegram.waitForMessages(bot, ann.id, (m) => m[1]?.text === tokenText(6), 30_000);
    expect(messages[1].replyTo).toBe(asked.message_id);
    expect(telegram.calls(bot, 'getUpdates')).toEqual([]);
    expect(telegram.calls(bot, 'setWebhook')[0].params).toMatchObject({ secret_token: SECRET, max_connections: 1 });
    expect(telegram.webhookPosts.every((p) => p.status === 200)).toBe(true);
    const health = (await request(gw!.url).get('/admin/channels').set(API_CLIENT).expect(200)).body as {
      channels: { id: string; accounts: { accountId: string; state: string }[] }[];
    };
    expect(health.channels.find((c) => c.id === 'telegram')?.accounts).toEqual([
      expect.objectContaining({ accountId: 'default', state: 'connected' }),
    ]);
  });

  it('refuses a post without the secret token or with a wrong one (401) and answers neither', async () => {
    const eve = FakeTelegramServer.user('Eve');
    const update = {
      update_id: 1,
      message: { message_id: 1, date: 0, chat: { id: eve.id, type: 'private' }, from: eve, text: 'let me in' },
    };
    const calls = model.requests.length;
    const missing = await request(gw!.url).post('/plugins/telegram/webhook/default').send(update).expect(401);
    expect(missing.body).toMatchObject({ status: 401, detail: 'request refused: the X-Telegram-Bot-Api-Secret-Token header is required' });
    const wrong = await request(gw!.url)
      .post('/plugins/telegram/webhook/default')
      .set('X-Telegram-Bot-Api-Secret-Token', 'not_the_secret')
      .send(update)
      .expect(401);
    expect(wrong.body).toMatchObject({ detail: 'request refused: the X-Telegram-Bot-Api-Secret-Token header does not match' });
    expect(JSON.stringify([missing.body, wrong.body])).not.toContain(SECRET);
    await request(gw!.url).post('/plugins/telegram/webhook/nobody').set('X-Telegram-Bot-Api-Secret-Token', SECRET).send(update).expect(404);
    // Something that would be answered still is, and the refused posts left nothing behind.
    const ann = FakeTelegramServer.user('Ann2');
    telegram.dm(bot, ann, 'hi');
    await telegram.waitForMessages(bot, ann.id, (m) => m.length === 1, 30_000); // a pairing code
    expect(bot.botMessages(eve.id)).toEqual([]);
    expect(model.requests.length).toBe(calls);
  });

  it('answers an update Telegram posts again (its answer lost) once', async () => {
    const bo = FakeTelegramServer.user('Bo');
    telegram.dm(bot, bo, 'first contact');
    const [pairing] = await telegram.waitForMessages(bot, bo.id, (m) => m.length === 1, 30_000);
    const posted = telegram.webhookPosts.filter((p) => p.update.message?.chat.id === bo.id && p.status === 200);
    expect(posted).toHaveLength(1);
    expect(await telegram.redeliver(bot, posted[0].update)).toBe(200);
    expect(await telegram.redeliver(bot, posted[0].update)).toBe(200);
    const code = /code is ([A-Z0-9]{8})/.exec(pairing.text)?.[1];
    await request(gw!.url).post(`/admin/pairing/telegram/${code}/approve`).set(API_CLIENT).expect(200);
    telegram.dm(bot, bo, 'and now');
    await telegram.waitForMessages(bot, bo.id, (m) => m[1]?.text === tokenText(6), 30_000);
    expect(bot.botMessages(bo.id)).toHaveLength(2);
  });

  it('answers once after a restart an update whose reply was streaming when the gateway stopped', async () => {
    const cy = FakeTelegramServer.user('Cy');
    telegram.dm(bot, cy, 'pair me');
    const [pairing] = await telegram.waitForMessages(bot, cy.id, (m) => m.length === 1, 30_000);
    const code = /code is ([A-Z0-9]{8})/.exec(pairing.text)?.[1];
    await request(gw!.url).post(`/admin/pairing/telegram/${code}/approve`).set(API_CLIENT).expect(200);
    model.always(model.tokens(8, 700)); // still streaming when the gateway stops
    telegram.dm(bot, cy, 'tell me');
    await telegram.waitForMessages(bot, cy.id, (m) => m.length === 2, 60_000);
    const requestsBefore = model.requests.length;
    gw = await gw!.restart();
    await telegram.waitForMessages(bot, cy.id, (m) => m[1]?.text === tokenText(8), 60_000);
    expect(bot.botMessages(cy.id)).toHaveLength(2);
    expect(model.requests.length).toBe(requestsBefore + 1);
  }, 180_000);
});

describe('telegram webhook config', () => {
  let dir: string;
  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clawgate-telegram-webhook-config-'))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function errorsOf(telegram: string): Promise<string[]> {
    const result = await loadConfig({
      configPath: path.join(dir, 'openclaw.json'),
      stateDir: path.join(dir, 'state'),
      homeDir: dir,
      env: { TG_HOOK_SECRET: 'from_env_secret' },
      rootText: `{ agents: { list: [{ id: "main", default: true }] }, channels: { telegram: ${telegram} } }`,
    });
    return result.ok ? [] : result.errors.map(formatConfigIssue);
  }

  it('names the missing webhookSecret, a bad webhookUrl or webhookPath, and never prints the secret', async () => {
    expect(await errorsOf(`{ botToken: "1:x", webhookUrl: "https://bot.example.com/tg" }`)).toEqual([
      expect.stringMatching(/^channels\.telegram: must have property webhookSecret when property webhookUrl is present/),
    ]);
    expect(
      await errorsOf(`{ botToken: "1:x", webhookSecret: "s", accounts: { work: { botToken: "2:y", webhookUrl: "https://b.example/w" } } }`),
    ).toEqual([]);
    expect(await errorsOf(`{ botToken: "1:x", accounts: { work: { botToken: "2:y", webhookUrl: "https://b.example/w" } } }`)).toEqual([
      expect.stringMatching(/^channels\.telegram\.accounts\.work: must have property webhookSecret when property webhookUrl is present/),
    ]);
    expect(await errorsOf(`{ botToken: "1:x", webhookUrl: "bot.example.com/tg", webhookSecret: "\${TG_HOOK_SECRET}" }`)).toEqual([
      expect.stringMatching(/^channels\.telegram\.webhookUrl: must match pattern .*\(got "bot\.example\.com\/tg"\)/),
    ]);
    expect(await errorsOf(`{ botToken: "1:x", webhookUrl: "https://b.example/tg", webhookSecret: "s", webhookPath: "no-slash" }`)).toEqual([
      expect.stringMatching(/^channels\.telegram\.webhookPath: must match pattern/),
    ]);
    const badSecret = await errorsOf(`{ botToken: "1:x", webhookUrl: "https://b.example/tg", webhookSecret: "has spaces in it" }`);
    expect(badSecret).toEqual([expect.stringMatching(/^channels\.telegram\.webhookSecret: must match pattern/)]);
    expect(badSecret.join('\n')).not.toContain('has spaces');
    expect(
      await errorsOf(`{ botToken: "1:x", webhookUrl: "https://b.example/tg", webhookSecret: "\${TG_HOOK_SECRET}", webhookPath: "/tg" }`),
    ).toEqual([]);
  });
});
