import type { ChannelContext, ChannelDefinition, ChannelDeliveryReceipt, ChannelOutboundMessage } from '../../plugin-sdk';
import { AccountSet, reportAccountFailure } from '../chat-kit';
import { TelegramAccount, type TelegramAccountOptions } from './telegram-account';
import { telegramAccounts, type TelegramAccountConfig, type TelegramSection } from './telegram-config';

/**
 * The `telegram` channel: one grammY bot per configured account, each long-polling the Bot API at its `apiRoot`
 * (docs/channels/telegram.md). A change of the section restarts the accounts whose token or API root changed, one
 * reconfiguration at a time (chat-kit's AccountSet).
 */
export function telegramChannel(options: TelegramAccountOptions = {}): ChannelDefinition {
  let accounts: AccountSet<TelegramAccountConfig, TelegramAccount> | undefined;

  function apply(ctx: ChannelContext, section: TelegramSection): Promise<void> {
    const { accounts: wanted, missing } = telegramAccounts(section);
    for (const accountId of missing) {
      ctx.setHealth({
        accountId,
        state: 'failed',
        error: `account ${accountId}: no botToken (channels.telegram.accounts.${accountId}.botToken)`,
      });
    }
    return accounts!.apply(wanted);
  }

  return {
    id: 'telegram',
    async start(ctx) {
      accounts = new AccountSet({
        fingerprint: (config) => JSON.stringify([config.botToken, config.apiRoot]),
        start: (config) => {
          const account = new TelegramAccount(config, ctx, options);
          account.start();
          return account;
        },
        stop: (account) => account.stop(),
        failed: (accountId, phase, error) => reportAccountFailure(ctx, 'telegram', accountId, phase, error),
      });
      ctx.onConfigChange<TelegramSection>((section) => void apply(ctx, section));
      await apply(ctx, ctx.config<TelegramSection>());
    },
    async stop() {
      // No account starts after this; the reconfiguration under way finishes first, so every account is seen here.
      await accounts?.stop();
    },
    async send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
      const account = accounts?.get(message.accountId);
      if (!account) return { status: 'failed', detail: `telegram has no running account "${message.accountId}"` };
      return account.send(message);
    },
  };
}
