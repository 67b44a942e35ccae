import type { ChannelContext, ChannelDefinition, ChannelDeliveryReceipt, ChannelOutboundMessage } from '../../plugin-sdk';
import { AccountSet, reportAccountFailure } from '../chat-kit';
import { DiscordAccount, type DiscordAccountOptions } from './discord-account';
import { discordAccounts, type DiscordAccountConfig, type DiscordSection } from './discord-config';

/**
 * The `discord` channel: one discord.js client per configured account (docs/channels/discord.md). A change of the
 * section restarts the accounts whose token, API base or guild rules changed, one reconfiguration at a time
 * (chat-kit's AccountSet).
 */
export function discordChannel(options: DiscordAccountOptions = {}): ChannelDefinition {
  let accounts: AccountSet<DiscordAccountConfig, DiscordAccount> | undefined;

  function apply(ctx: ChannelContext, section: DiscordSection): Promise<void> {
    const { accounts: wanted, missing } = discordAccounts(section);
    for (const accountId of missing) {
      ctx.setHealth({ accountId, state: 'failed', error: `account ${accountId}: no token (channels.discord.accounts.${accountId}.token)` });
    }
    return accounts!.apply(wanted);
  }

  return {
    id: 'discord',
    async start(ctx) {
      accounts = new AccountSet({
        // The guild rules are read when a message arrives from the account's own config: a change restarts it.
        fingerprint: (config) => JSON.stringify(config),
        start: (config) => {
          const account = new DiscordAccount(config, ctx, options);
          account.start();
          return account;
        },
        stop: (account) => account.stop(),
        failed: (accountId, phase, error) => reportAccountFailure(ctx, 'discord', accountId, phase, error),
      });
      ctx.onConfigChange<DiscordSection>((section) => void apply(ctx, section));
      await apply(ctx, ctx.config<DiscordSection>());
    },
    async stop() {
      await accounts?.stop();
    },
    async send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
      const account = accounts?.get(message.accountId);
      if (!account) return { status: 'failed', detail: `discord has no running account "${message.accountId}"` };
      return account.send(message);
    },
  };
}
