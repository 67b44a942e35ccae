import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeTelegramServer } from '../../support/fake-telegram';

/**
 * `kill -9` of the process running the Telegram channel in the middle of a burst of 50 updates, then a restart on
 * the same state dir: every update is answered exactly once — none lost with the process, none answered twice.
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

  function startChannel(token: string, stateDir: string): ChildProcess {
    const process_ = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', path.join(__dirname, 'fixtures', 'telegram-channel-process.ts')],
      {
        env: { ...process.env, TG_API_ROOT: telegram.apiRoot, TG_TOKEN: token, TG_STATE_DIR: stateDir },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
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
});
