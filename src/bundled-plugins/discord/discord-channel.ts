import type { ChannelContext, ChannelDefinition, ChannelDeliveryReceipt, ChannelOutboundMessage } from '../../plugin-sdk';
import { DiscordAccount, type DiscordAccountOptions } from './discord-account';
import { discordAccounts, type DiscordSection } from './discord-config';

/**
 * The `discord` channel: one discord.js client per configured account (docs/channels/discord.md). A change of the
 * section restarts the accounts whose token, API base or guild rules changed.
 */
export function discordChannel(options: DiscordAccountOptions = {}): ChannelDefinition {
  const accounts = new Map<string, DiscordAccount>();
  let context: ChannelContext | undefined;

  async function apply(section: DiscordSection): Promise<void> {
    const ctx = context!;
    const { accounts: wanted, missing } = discordAccounts(section);
    for (const accountId of missing) {
      ctx.setHealth({ accountId, state: 'failed', error: `account ${accountId}: no token (channels.discord.accounts.${accountId}.token)` });
    }
    for (const [id, account] of accounts) {
      const next = wanted.find((w) => w.accountId === id);
      if (next && JSON.stringify(next) === JSON.stringify(account.config)) continue;
      accounts.delete(id);
      await account.stop();
    }
    for (const config of wanted) {
      if (accounts.has(config.accountId)) continue;
      const account = new DiscordAccount(config, ctx, options);
      accounts.set(config.accountId, account);
      account.start();
    }
  }

  return {
    id: 'discord',
    async start(ctx) {
      context = ctx;
      ctx.onConfigChange<DiscordSection>((section) => {
        void apply(section).catch((error: unknown) => ctx.logger.error(`discord: reconfiguring failed: ${(error as Error).message}`));
      });
      await apply(ctx.config<DiscordSection>());
    },
    async stop() {
      const all = [...accounts.values()];
      accounts.clear();
      await Promise.allSettled(all.map((a) => a.stop()));
    },
    async send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
      const account = accounts.get(message.accountId);
      if (!account) return { status: 'failed', detail: `discord has no running account "${message.accountId}"` };
      return account.send(message);
    },
  };
}
