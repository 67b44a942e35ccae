import type { ChannelContext, ChannelOutboundMessage } from '../../src/plugin-sdk';

/**
 * A chat channel plugin for tests (docs/plugins.md#channels): manifest `chatkit` providing channel `chat`, and code
 * whose "platform" is plain function calls: the test hands messages to the channel's `context.inbound` and reads what
 * the gateway asked it to send. Written into a plugin directory with `writePluginDir`.
 */

export interface Platform {
  ctx?: ChannelContext;
  starts: number;
  stops: number;
  /** Starts that throw before one succeeds. */
  failStarts: number;
  sent: ChannelOutboundMessage[];
}
/**
 * Shared with the plugin's code, which Node loads outside Jest's sandbox (its own globals): a core module is the same
 * object on both sides, so the platform hangs on one under a registered symbol.
 */
const PLATFORM = Symbol.for('clawgate.test.chatPlatform');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the very module object the plugin's require returns
const shared = require('node:events') as Record<symbol, Platform>;

/** The platform the plugin's code talks to, fresh for a test file (`failStarts`: starts that throw first). */
export function chatPlatform(options: { failStarts?: number } = {}): Platform {
  return (shared[PLATFORM] = { starts: 0, stops: 0, failStarts: options.failStarts ?? 0, sent: [] });
}

export const CHAT_MANIFEST = {
  id: 'chatkit',
  name: 'Chat kit',
  version: '0.1.0',
  configSchema: { type: 'object', additionalProperties: false, properties: {} },
  contracts: { channels: ['chat'] },
  activation: 'channel',
  channelConfigs: {
    chat: {
      schema: { type: 'object', additionalProperties: false, properties: { botToken: { type: 'string' } } },
      secrets: ['botToken'],
      setup: [{ flag: 'bot-token', key: 'botToken', sensitive: true }],
    },
  },
};

export const CHAT_CODE = `
const platform = require('node:events')[Symbol.for('clawgate.test.chatPlatform')];
module.exports = {
  register(api) {
    api.registerChannel({
      id: 'chat',
      async start(ctx) {
        platform.starts++;
        if (platform.failStarts > 0) {
          platform.failStarts--;
          throw new Error('platform unreachable: connection refused');
        }
        platform.ctx = ctx;
        const accounts = Object.keys(ctx.config().accounts || {});
        for (const accountId of accounts.length ? accounts : ['default']) ctx.setHealth({ accountId, state: 'connected' });
      },
      stop() {
        platform.stops++;
        platform.ctx = undefined;
      },
      async send(message) {
        platform.sent.push(message);
        return { status: 'delivered', messageId: 'sent-' + platform.sent.length };
      },
    });
  },
};
`;
