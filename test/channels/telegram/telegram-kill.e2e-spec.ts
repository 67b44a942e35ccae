import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as net from 'node:net';
import { FakeTelegramServer } from '../../support/fake-telegram';

/**
 * `kill -9` of the process running the Telegram channel in the middle of a burst of 50 updates, then a restart on
 * the same state dir: every update is answered exactly once — none lost with the process, none answered twice;
 * by long polling, and by webhook (posts answered only once journaled, posted again while the process is gone).
 * (The plugin alone here, so that the kill lands inside its own work; the whole gateway: telegram-gateway.)
 */
describe('telegram channel: kill -9 during a burst', () => {
  let telegram: FakeTelegramServer;
  let child: ChildProcess | undefined;

  beforeEach(async () => {
    telegram = await new FakeTelegramServer().start();
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    await telegram.close();
  });

  function startChannel(token: string, stateDir: string, webhook?: { port: number; secret: string }): ChildProcess {
    const fixture = webhook ? 'telegram-webhook-process.ts' : 'telegram-channel-process.ts';
    const process_ = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(__dirname, 'fixtures', fixture)], {
      env: {
        ...process.env,
        TG_API_ROOT: telegram.apiRoot,
        TG_TOKEN: token,
        TG_STATE_DIR: stateDir,
        ...(webhook ? { TG_HOOK_PORT: String(webhook.port), TG_HOOK_SECRET: webhook.secret } : {}),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return process_;
  }

  it('answers each of 50 updates exactly once across the kill and the restart', async () => {
    const bot = telegram.addBot('burst_bot');
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-telegram-kill-'));
    const users = Array.from({ length: 25 }, (_, i) => FakeTelegramServer.user(`User${i}`));

    child = startChannel(bot.token, stateDir);
    await telegram.waitFor(bot, () => telegram.calls(bot, 'getUpdates').length > 0 || undefined, 90_000, 'the first poll');
    const asked = [];
    for (let round = 0; round < 2; round++) {
      for (const [i, user] of users.entries()) asked.push(telegram.dm(bot, user, `m${round}-${i}`));
    }
    const answered = (): number => bot.botMessages().filter((m) => m.text.startsWith('answer to') && !m.text.endsWith('…')).length;
    await telegram.waitFor(bot, () => answered() >= 10 || undefined, 30_000, '10 replies');
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    const beforeRestart = answered();

    child = startChannel(bot.token, stateDir);
    await telegram.waitFor(bot, () => answered() === 50 || undefined, 60_000, 'all 50 replies');
    // Settle: anything replayed twice would show up as a second message.
    await telegram.waitFor(bot, () => bot.pendingUpdates().length === 0 || undefined, 20_000, 'Telegram to hold no update');

    expect(beforeRestart).toBeLessThan(50);
    for (const message of asked) {
      const replies = bot.botMessages(message.chat.id).filter((m) => m.replyTo === message.message_id);
      expect({ asked: message.text, replies: replies.map((r) => r.text) }).toEqual({
        asked: message.text,
        replies: [`answer to ${message.text}`],
      });
    }
    expect(bot.botMessages()).toHaveLength(50);
  }, 240_000);

  it('in webhook mode, answers each of 50 posted updates exactly once across the kill and the restart', async () => {
    const bot = telegram.addBot('hook_burst_bot');
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-telegram-hook-kill-'));
    const webhook = { port: await freePort(), secret: 'burst_secret' };
    const users = Array.from({ length: 25 }, (_, i) => FakeTelegramServer.user(`Hook${i}`));

    child = startChannel(bot.token, stateDir, webhook);
    await telegram.waitFor(bot, () => bot.webhook, 90_000, 'the webhook to be set');
    const asked = [];
    for (let round = 0; round < 2; round++) {
      for (const [i, user] of users.entries()) asked.push(telegram.dm(bot, user, `h${round}-${i}`));
    }
    const answered = (): number => bot.botMessages().filter((m) => m.text.startsWith('answer to') && !m.text.endsWith('…')).length;
    await telegram.waitFor(bot, () => answered() >= 10 || undefined, 30_000, '10 replies');
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    const beforeRestart = answered();

    // Meanwhile Telegram's posts find nobody and are posted again; the restarted process takes them.
    child = startChannel(bot.token, stateDir, webhook);
    await telegram.waitFor(bot, () => answered() === 50 || undefined, 60_000, 'all 50 replies');
    await telegram.waitFor(bot, () => bot.pendingUpdates().length === 0 || undefined, 20_000, 'Telegram to hold no update');

    expect(beforeRestart).toBeLessThan(50);
    for (const message of asked) {
      const replies = bot.botMessages(message.chat.id).filter((m) => m.replyTo === message.message_id);
      expect({ asked: message.text, replies: replies.map((r) => r.text) }).toEqual({
        asked: message.text,
        replies: [`answer to ${message.text}`],
      });
    }
    expect(bot.botMessages()).toHaveLength(50);
  }, 240_000);
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
