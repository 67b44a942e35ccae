import type { ChannelContext } from '../../plugin-sdk';

/**
 * An account whose client could not be started (its health says so, with the reason) or stopped cleanly (logged:
 * the client is dropped either way). The error is the client's own, which names the account, never its token.
 */
export function reportAccountFailure(
  context: ChannelContext,
  channel: string,
  accountId: string,
  phase: 'start' | 'stop',
  error: unknown,
): void {
  const reason = error instanceof Error ? error.message : String(error);
  context.logger.error(`${channel} account ${accountId}: could not ${phase}: ${reason}`);
  if (phase === 'start') context.setHealth({ accountId, state: 'failed', error: `account ${accountId}: could not start: ${reason}` });
}
