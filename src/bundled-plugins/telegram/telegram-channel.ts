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
      if (accounts.has(config.accountId)) continue;
      const account = new TelegramAccount(config, ctx, options);
      accounts.set(config.accountId, account);
      account.start();
    }
  }

  return {
    id: 'telegram',
    async start(ctx) {
      context = ctx;
      ctx.onConfigChange<TelegramSection>((section) => {
        void apply(section).catch((error: unknown) => ctx.logger.error(`telegram: reconfiguring failed: ${(error as Error).message}`));
      });
      await apply(ctx.config<TelegramSection>());
    },
    async stop() {
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
