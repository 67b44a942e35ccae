import { definePlugin } from '../../plugin-sdk';
import { telegramChannel } from './telegram-channel';

/** The bundled Telegram plugin: it registers the `telegram` channel (docs/channels/telegram.md). */
export default definePlugin({
  register(api) {
    api.registerChannel(telegramChannel());
  },
});
