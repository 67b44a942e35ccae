import type { ChannelDefinition } from '../../../src/plugin-sdk';
import { telegramChannel } from '../../../src/bundled-plugins/telegram/telegram-channel';
import type { TelegramAccountOptions } from '../../../src/bundled-plugins/telegram/telegram-account';
import { UpdateJournal } from '../../../src/bundled-plugins/telegram/update-journal';
import { FakeTelegramServer, type FakeBot } from '../../support/fake-telegram';
import { replyWith, ScriptedChannelContext } from '../../support/scripted-channel-context';
import { waitUntil } from '../../support/wait-until';

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

  it('keeps an update the gateway did not answer because it is shutting down, and answers it once after the restart', async () => {
    const bot = telegram.addBot('shutdown_bot');
    const first = new ScriptedChannelContext(section(bot), () =>
      replyWith([
        { type: 'progress', text: 'Half an ans' },
        { type: 'failed', message: 'the gateway is shutting down', status: 'aborted', retryable: true },
      ]),
    );
    await startWith(first);
    telegram.dm(bot, ann, 'question');
    await waitUntil(() => first.logs.some((l) => /is kept for the next start/.test(l)));
    await channel!.stop?.();
    expect(bot.botMessages(ann.id).map((m) => m.text)).toEqual(['Half an ans']);
    const second = new ScriptedChannelContext(section(bot), () => replyWith([{ type: 'final', text: 'The whole answer' }]), first.stateDir);
    await startWith(second);
    await telegram.waitForMessages(bot, ann.id, (m) => m[0]?.text === 'The whole answer');
    expect(second.inbounds.map((m) => m.text)).toEqual(['question']);
    // The restarted reply edits the message already sent: one message, never a warning, never a second answer.
    expect(bot.botMessages(ann.id).map((m) => m.text)).toEqual(['The whole answer']);
  });

  it('counts a reply Telegram still refuses after the retries as a delivery failure of the account', async () => {
    const bot = telegram.addBot('refused_bot');
    const context = new ScriptedChannelContext(section(bot));
    await startWith(context);
    bot.failNext('sendMessage', 4, 0, 500);
    telegram.dm(bot, ann, 'hello?');
    await waitUntil(() => context.deliveryFailures.length > 0, 20_000);
    expect(context.deliveryFailures).toEqual(['default: account default: sendMessage failed: 500 Internal Server Error']);
  });

  /** True when the bot's `getUpdates` calls stop coming (past a whole long poll and a retry's pause). */
  async function pollsStopped(bot: FakeBot): Promise<boolean> {
    // A request the stop aborted may have left before the abort and reach the server a moment later, on a loaded
    // machine later still: only what is asked after that counts.
    await new Promise((r) => setTimeout(r, 500));
    const before = telegram.calls(bot, 'getUpdates').length;
    await new Promise((r) => setTimeout(r, 2500));
    return telegram.calls(bot, 'getUpdates').length === before;
  }

  it('follows two quick reconfigurations to the last one: an account the second removed stays removed', async () => {
    const a1 = telegram.addBot('a_one_bot');
    const a2 = telegram.addBot('a_two_bot');
    const b = telegram.addBot('b_bot');
    const accounts = (a: FakeBot, withB: boolean) => ({
      apiRoot: telegram.apiRoot,
      accounts: { a: { botToken: a.token }, ...(withB ? { b: { botToken: b.token } } : {}) },
    });
    const context = new ScriptedChannelContext(accounts(a1, true));
    await startWith(context);
    await waitUntil(() => context.lastHealth('a')?.state === 'connected' && context.lastHealth('b')?.state === 'connected');
    // The first change restarts `a` (a new token); before it is through, the second removes `b`.
    const changedAt = context.healths.length;
    context.change(accounts(a2, true));
    context.change(accounts(a2, false));
    await waitUntil(() => telegram.calls(a2, 'getUpdates').length > 0 && context.lastHealth('b')?.state === 'stopped');
    expect(await pollsStopped(b)).toBe(true);
    // `b` was stopped once and never started again (the first change, resumed late, must not re-create it).
    expect(
      context.healths
        .slice(changedAt)
        .filter((h) => h.accountId === 'b')
        .map((h) => h.state),
    ).toEqual(['stopped']);
    telegram.dm(a2, ann, 'still there?');
    await telegram.waitForMessages(a2, ann.id, (m) => m.length === 1);
  });

  it('leaves no poller behind when the channel stops during a reconfiguration', async () => {
    const first = telegram.addBot('first_bot');
    const second = telegram.addBot('second_bot');
    const context = new ScriptedChannelContext(section(first));
    await startWith(context);
    await waitUntil(() => context.lastHealth('default')?.state === 'connected');
    context.change(section(second));
    await channel!.stop?.();
    channel = undefined;
    expect(await pollsStopped(first)).toBe(true);
    expect(await pollsStopped(second)).toBe(true);
  });
});
