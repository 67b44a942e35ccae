import { definePlugin } from '../../plugin-sdk';
import { discordChannel } from './discord-channel';

/** The bundled Discord plugin: it registers the `discord` channel (docs/channels/discord.md). */
export default definePlugin({
  register(api) {
    api.registerChannel(discordChannel());
  },
});
