import type { ChannelDefinition } from '../../../src/plugin-sdk';
import { telegramChannel } from '../../../src/bundled-plugins/telegram/telegram-channel';
import type { TelegramAccountOptions } from '../../../src/bundled-plugins/telegram/telegram-account';
import { UpdateJournal } from '../../../src/bundled-plugins/telegram/update-journal';
import { FakeTelegramServer, type FakeBot } from '../../support/fake-telegram';
import { ScriptedChannelContext } from './scripted-channel-context';

/**
 * The Telegram channel plugin when things around it fail: the disk under its update journal, a reconfiguration
 * racing another one or a stop. The real grammY client against the fake Bot API; the gateway's side scripted.
 */
describe('telegram channel plugin under failure', () => {
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

  async function startWith(context: ScriptedChannelContext, options: TelegramAccountOptions = {}): Promise<ChannelDefinition> {
    channel = telegramChannel({ pollTimeoutSeconds: 1, chatIntervalMs: 100, ...options });
    await channel.start(context);
    return channel;
  }

  const section = (bot: FakeBot, extra: Record<string, unknown> = {}) => ({ botToken: bot.token, apiRoot: telegram.apiRoot, ...extra });

  it('keeps answering when the journal cannot record an answered update (a full disk), with no unhandled rejection', async () => {
    const bot = telegram.addBot('full_disk_bot');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    let refusals = 0;
    const openJournal = (file: string): UpdateJournal => {
      const journal = UpdateJournal.open(file);
      const done = journal.done.bind(journal);
      // The first answered update meets a disk that refuses the write, as fs.writeSync does on ENOSPC.
      journal.done = (updateId) => {
        if (refusals++ === 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        done(updateId);
      };
      return journal;
    };
    const context = new ScriptedChannelContext(section(bot));
    try {
      await startWith(context, { openJournal });
      telegram.dm(bot, ann, 'one');
      await telegram.waitForMessages(bot, ann.id, (m) => m.length === 1);
      telegram.dm(bot, ann, 'two');
      await telegram.waitForMessages(bot, ann.id, (m) => m.length === 2);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(bot.botMessages(ann.id).map((m) => m.text)).toEqual(['echo: one', 'echo: two']);
    expect(unhandled).toEqual([]);
    expect(context.logs).toContainEqual(expect.stringMatching(/update \d+ was answered but the journal could not record it: ENOSPC/));
  });
});
