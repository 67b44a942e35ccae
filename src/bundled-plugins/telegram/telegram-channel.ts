import type { ChannelContext, ChannelDefinition, ChannelDeliveryReceipt, ChannelOutboundMessage } from '../../plugin-sdk';
import { TelegramAccount, type TelegramAccountOptions } from './telegram-account';
import { telegramAccounts, type TelegramSection } from './telegram-config';

/**
 * The `telegram` channel: one grammY bot per configured account, each long-polling the Bot API at its `apiRoot`
 * (docs/channels/telegram.md). A change of the section restarts the accounts whose token or API root changed.
 */
export function telegramChannel(options: TelegramAccountOptions = {}): ChannelDefinition {
  const accounts = new Map<string, TelegramAccount>();
  let context: ChannelContext | undefined;
  /**
   * Applies run one after the other: two concurrent ones would each act on a section the other has overtaken (an
   * account removed by the second, re-created when the first resumes; two pollers, two journals on one file).
   */
  let applying: Promise<void> = Promise.resolve();
  let stopping = false;

  function enqueue(section: TelegramSection): Promise<void> {
    applying = applying
      .then(() => (stopping ? undefined : apply(section)))
      .catch((error: unknown) => context?.logger.error(`telegram: reconfiguring failed: ${(error as Error).message}`));
    return applying;
  }

  async function apply(section: TelegramSection): Promise<void> {
    const ctx = context!;
    const { accounts: wanted, missing } = telegramAccounts(section);
    for (const accountId of missing) {
      ctx.setHealth({
        accountId,
        state: 'failed',
        error: `account ${accountId}: no botToken (channels.telegram.accounts.${accountId}.botToken)`,
      });
    }
    for (const [id, account] of accounts) {
      const next = wanted.find((w) => w.accountId === id);
      if (next && next.botToken === account.config.botToken && next.apiRoot === account.config.apiRoot) continue;
      accounts.delete(id);
      await account.stop();
    }
    for (const config of wanted) {
      if (accounts.has(config.accountId) || stopping || ctx.signal.aborted) continue;
      const account = new TelegramAccount(config, ctx, options);
      accounts.set(config.accountId, account);
      account.start();
    }
  }

  return {
    id: 'telegram',
    async start(ctx) {
      context = ctx;
      stopping = false;
      ctx.onConfigChange<TelegramSection>((section) => void enqueue(section));
      await enqueue(ctx.config<TelegramSection>());
    },
    async stop() {
      // No apply starts an account after this; the one under way finishes first, so every account is seen here.
      stopping = true;
      await applying;
      const all = [...accounts.values()];
      accounts.clear();
      await Promise.allSettled(all.map((a) => a.stop()));
    },
    async send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
      const account = accounts.get(message.accountId);
      if (!account) return { status: 'failed', detail: `telegram has no running account "${message.accountId}"` };
      return account.send(message);
    },
  };
}
