import type {
  ChannelContext,
  ChannelDefinition,
  ChannelDeliveryReceipt,
  ChannelOutboundMessage,
  PluginHttpRequest,
  PluginHttpResponse,
} from '../../plugin-sdk';
import { AppError, ErrorCode } from '../../plugin-sdk';
import { AccountSet, reportAccountFailure } from '../chat-kit';
import { TelegramAccount, type TelegramAccountOptions } from './telegram-account';
import { accountFingerprint, telegramAccounts, type TelegramAccountConfig, type TelegramSection } from './telegram-config';
import { webhookSecretProblem } from './webhook-secret';

export interface TelegramChannel extends ChannelDefinition {
  /**
   * Checks a webhook post before its body is read: an account in webhook mode must receive at `path` (404), and the
   * post must carry its secret (401). Throws the AppError to answer with; returns the account.
   */
  webhookAccount(path: string, headers: PluginHttpRequest['headers']): TelegramAccount;
  /** A webhook post to the plugin's route at `path` (below `/plugins/telegram`). */
  handleWebhook(path: string, request: PluginHttpRequest): PluginHttpResponse;
}

/**
 * The `telegram` channel: one grammY bot per configured account, each long-polling the Bot API at its `apiRoot` or,
 * with `webhookUrl`, receiving its updates by webhook on the plugin's route (docs/channels/telegram.md). A change of the
 * section restarts the accounts whose token, API root or webhook changed, one reconfiguration at a time (chat-kit's
 * AccountSet).
 */
export function telegramChannel(options: TelegramAccountOptions = {}): TelegramChannel {
  let accounts: AccountSet<TelegramAccountConfig, TelegramAccount> | undefined;
  let context: ChannelContext | undefined;
  /** Webhook path → account id, as the section last applied says. */
  let webhookPaths = new Map<string, string>();

  function apply(ctx: ChannelContext, section: TelegramSection): Promise<void> {
    const { accounts: wanted, missing } = telegramAccounts(section);
    for (const { accountId, lacks } of missing) {
      ctx.setHealth({ accountId, state: 'failed', error: `account ${accountId}: no ${lacks}` });
    }
    webhookPaths = new Map(wanted.filter((a) => a.webhook).map((a) => [a.webhook!.path, a.accountId]));
    return accounts!.apply(wanted);
  }

  return {
    id: 'telegram',
    async start(ctx) {
      context = ctx;
      accounts = new AccountSet({
        fingerprint: accountFingerprint,
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
    webhookAccount(path, headers) {
      const accountId = webhookPaths.get(path);
      const account = accountId === undefined ? undefined : accounts?.get(accountId);
      if (!account?.config.webhook) throw new AppError(ErrorCode.NotFound, `no Telegram account receives webhook posts at ${path}`);
      const problem = webhookSecretProblem(account.config.webhook.secret, headers);
      if (problem) {
        context?.logger.warn(`telegram account ${account.accountId}: a webhook post was refused: ${problem}`);
        throw new AppError(ErrorCode.Unauthenticated, `request refused: ${problem}`);
      }
      return account;
    },
    handleWebhook(path, request) {
      const answer = this.webhookAccount(path, request.headers).receiveWebhook(request.body);
      return answer.status === 200 ? { status: 200 } : { status: answer.status, body: { error: answer.error } };
    },
  };
}
