import { definePlugin } from '../../plugin-sdk';
import { telegramChannel } from './telegram-channel';

/** How deep a `webhookPath` may go below `/plugins/telegram` (the manifest's pattern says the same). */
const WEBHOOK_PATH_DEPTH = 4;

/**
 * The bundled Telegram plugin: it registers the `telegram` channel (docs/channels/telegram.md) and, for accounts in
 * webhook mode, the routes Telegram posts their updates to: `POST /plugins/telegram/webhook/<accountId>`, or the
 * account's `webhookPath` below `/plugins/telegram` (public: each post must carry the account's secret token, checked
 * before its body is read).
 */
export default definePlugin({
  register(api) {
    const channel = telegramChannel();
    api.registerChannel(channel);
    // A path of one to four segments: which account it is is the channel's to say, from the config it applied.
    for (let depth = 1; depth <= WEBHOOK_PATH_DEPTH; depth++) {
      api.registerHttpRoute({
        method: 'POST',
        path: Array.from({ length: depth }, (_, i) => `/:s${i}`).join(''),
        auth: 'public',
        precheck: (request) => void channel.webhookAccount(decodedPath(request.path), request.headers),
        handle: (request) => channel.handleWebhook(decodedPath(request.path), request),
      });
    }
  },
});

function decodedPath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}
