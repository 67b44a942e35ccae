import { definePlugin } from '../../plugin-sdk';
import { A2aChannel } from './a2a-channel';

/**
 * The bundled A2A channel (docs/a2a.md): it registers the channel `a2a`, so the gateway's channel registry, the
 * `/admin/channels` list and announces into a2a sessions know it through the plugin contract like every other channel.
 * `channels.a2a` stays a section of the core's config (validated, normalized and documented there; its setup fields
 * are this plugin's manifest's), and the A2A server, its routes and its stores stay in the core's A2A module: while
 * this plugin is disabled (`plugins.deny`, `plugins.entries.a2a.enabled: false`) the config pipeline turns the channel
 * off, so `/a2a` and the Agent Card answer 404 and outbound A2A is off too.
 */
export default definePlugin({
  register(api) {
    api.registerChannel(new A2aChannel());
  },
});
