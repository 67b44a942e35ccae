import type {
  ChannelContext,
  ChannelDefinition,
  ChannelDeliveryReceipt,
  ChannelOutboundMessage,
  PluginHttpRequest,
  PluginHttpResponse,
} from '../../plugin-sdk';
import { AccountSet, reportAccountFailure } from '../chat-kit';
import { SlackAccount, type SlackAccountOptions, type SlackEventCallback } from './slack-account';
import { accountFingerprint, slackAccounts, type SlackAccountConfig, type SlackSection } from './slack-config';
import { signatureProblem } from './slack-signature';

export interface SlackChannel extends ChannelDefinition {
  /** An Events API request for `accountId` (the plugin's route `POST /plugins/slack/events/:accountId`). */
  handleEvents(accountId: string, request: PluginHttpRequest): Promise<PluginHttpResponse>;
}

/**
 * The `slack` channel: one SlackAccount per configured account, each in Socket Mode (default) or HTTP mode
 * (docs/channels/slack.md). A change of the section restarts the accounts whose tokens, mode or API URL changed, one
 * reconfiguration at a time (chat-kit's AccountSet).
 */
export function slackChannel(options: SlackAccountOptions = {}): SlackChannel {
  let accounts: AccountSet<SlackAccountConfig, SlackAccount> | undefined;
  let context: ChannelContext | undefined;

  function apply(ctx: ChannelContext, section: SlackSection): Promise<void> {
    const { accounts: wanted, missing } = slackAccounts(section);
    for (const { accountId, lacks } of missing) {
      ctx.setHealth({ accountId, state: 'failed', error: `account ${accountId}: no ${lacks}` });
    }
    return accounts!.apply(wanted);
  }

  return {
    id: 'slack',
    async start(ctx) {
      context = ctx;
      accounts = new AccountSet({
        fingerprint: accountFingerprint,
        start: (config) => {
          const account = new SlackAccount(config, ctx, options);
          account.start();
          return account;
        },
        stop: (account) => account.stop(),
        failed: (accountId, phase, error) => reportAccountFailure(ctx, 'slack', accountId, phase, error),
      });
      ctx.onConfigChange<SlackSection>((section) => void apply(ctx, section));
      await apply(ctx, ctx.config<SlackSection>());
    },
    async stop() {
      await accounts?.stop();
    },
    async send(message: ChannelOutboundMessage): Promise<ChannelDeliveryReceipt> {
      const account = accounts?.get(message.accountId);
      if (!account) return { status: 'failed', detail: `slack has no running account "${message.accountId}"` };
      return account.send(message);
    },
    async handleEvents(accountId, request) {
      const account = accounts?.get(accountId);
      if (!account || account.config.mode !== 'http' || !account.config.signingSecret) {
        return { status: 404, body: { error: `no Slack account "${accountId}" in HTTP mode` } };
      }
      const problem = signatureProblem(account.config.signingSecret, request.headers, request.rawBody);
      if (problem) {
        context?.logger.warn(`slack account ${accountId}: an Events API request was refused: ${problem}`);
        return { status: 401, body: { error: `request refused: ${problem}` } };
      }
      const body = request.body as (SlackEventCallback & { challenge?: unknown }) | undefined;
      if (body?.type === 'url_verification' && typeof body.challenge === 'string')
        return { status: 200, body: { challenge: body.challenge } };
      if (!body || typeof body !== 'object') return { status: 400, body: { error: 'the body must be a JSON event callback' } };
      // Slack waits 3 s for the answer: the event is journaled and answered 200 before the gateway decides.
      let acknowledged!: () => void;
      const ack = new Promise<void>((resolve) => (acknowledged = resolve));
      const handled = account.receive(body, () => {
        acknowledged();
        return Promise.resolve();
      });
      await Promise.race([ack, handled]);
      void handled.catch((error: unknown) =>
        context?.logger.error(`slack account ${accountId}: an event was not handled: ${(error as Error).message}`),
      );
      return { status: 200 };
    },
  };
}
